package learn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/leolab/leolab/internal/quantity"
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
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("learn: pool line %d: %w", line, err)
		}
		ph, ok := map[string]Phase{"UP": Up, "DOWN": Down, "CRUISE": Cruise}[c.Phase]
		if !ok {
			return nil, fmt.Errorf("learn: pool line %d: unknown phase %q", line, c.Phase)
		}
		src := labelNames[c.LabelSource]
		if err := c.checkLabel(ph, src); err != nil {
			return nil, fmt.Errorf("learn: pool line %d: %w", line, err)
		}
		rows = append(rows, Row{
			Source: Source{Location: c.Location, Stream: c.Stream, Flow: c.Flow}, Index: c.Index,
			Sample: Sample{T: seconds(c.TS), Throughput: c.Throughput, Retransmits: c.Retransmits, CWnd: c.CWnd,
				RWnd: c.RWnd, RTT: millis(c.RTTMs), RTTVar: millis(c.RTTVarMs)},
			Phase: ph, Refs: Refs{U: c.Utilization}, Action: c.Action, Reward: c.Reward, Mapped: c.Mapped,
			MappedReward: c.MappedReward, LabelSource: src, GainRewards: c.GainRewards,
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("learn: %w", err)
	}
	return rows, nil
}

// check bounds a record's times and quantities, so that converting them
// to Durations cannot overflow and no value lies about its unit: t_s a
// time in a run's longest duration, RTTs within the longest delay, counts
// and rates not negative (JSON has no NaN: its numbers are finite).
func (c *record) check() error {
	for _, q := range []struct {
		name   string
		v, max float64
	}{
		{"t_s", c.TS, quantity.MaxDuration.Seconds()},
		{"rtt_ms", c.RTTMs, float64(quantity.MaxDelay / time.Millisecond)},
		{"rttvar_ms", c.RTTVarMs, float64(quantity.MaxDelay / time.Millisecond)},
		{"throughput_bps", c.Throughput, quantity.MaxRate},
		{"retransmits", float64(c.Retransmits), math.MaxInt64},
		{"cwnd_bytes", float64(c.CWnd), math.MaxInt32},
		{"rwnd_bytes", float64(c.RWnd), math.MaxInt32},
	} {
		if err := quantity.Float(q.v, 0, q.max); err != nil {
			return fmt.Errorf("%s: %v", q.name, err)
		}
	}
	return nil
}

// checkLabel checks label_source and, for counterfactual rows, that the
// label is one of the phase's gains and gain_rewards has one reward per
// feasible gain.
func (c *record) checkLabel(ph Phase, src LabelSource) error {
	if _, ok := labelNames[c.LabelSource]; !ok {
		return fmt.Errorf("label_source %q (allowed: surrogate, counterfactual)", c.LabelSource)
	}
	if src != LabelCounterfactual {
		if len(c.GainRewards) > 0 {
			return fmt.Errorf("gain_rewards on a %s row (only counterfactual rows carry them)", src)
		}
		return nil
	}
	if !IsFeasible(ph, c.Action) {
		return fmt.Errorf("action %g is not a %v gain (allowed: %v)", c.Action, ph, Feasible(ph))
	}
	if n := len(Feasible(ph)); len(c.GainRewards) != n {
		return fmt.Errorf("gain_rewards has %d values, want %d (one per %v gain %v)", len(c.GainRewards), n, ph, Feasible(ph))
	}
	return nil
}
