package learn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
)

// ReadJSONL reads a pool written by WriteJSONL back into rows: the
// state, phase, utilization, labels and rewards (the other references are
// not written and stay zero).
func ReadJSONL(r io.Reader) ([]Row, error) {
	var rows []Row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c record
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("learn: pool line %d: %w", line, err)
		}
		ph, ok := map[string]Phase{"UP": Up, "DOWN": Down, "CRUISE": Cruise}[c.Phase]
		if !ok {
			return nil, fmt.Errorf("learn: pool line %d: unknown phase %q", line, c.Phase)
		}
		rows = append(rows, Row{
			Source: Source{Location: c.Location, Stream: c.Stream, Flow: c.Flow}, Index: c.Index,
			Sample: Sample{T: seconds(c.TS), Throughput: c.Throughput, Retransmits: c.Retransmits, CWnd: c.CWnd,
				RWnd: c.RWnd, RTT: millis(c.RTTMs), RTTVar: millis(c.RTTVarMs)},
			Phase: ph, Refs: Refs{U: c.Utilization}, Action: c.Action, Reward: c.Reward, Mapped: c.Mapped,
			MappedReward: c.MappedReward,
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	return rows, nil
}
