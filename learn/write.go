package learn

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// record is a row as written: units in the key names at this I/O boundary.
type record struct {
	Location     string  `json:"location"`
	Stream       string  `json:"stream"`
	Flow         string  `json:"flow"`
	Index        int     `json:"i"`
	TS           float64 `json:"t_s"`
	Throughput   float64 `json:"throughput_bps"`
	Retransmits  int64   `json:"retransmits"`
	CWnd         int     `json:"cwnd_bytes"`
	RWnd         int     `json:"rwnd_bytes"`
	RTTMs        float64 `json:"rtt_ms"`
	RTTVarMs     float64 `json:"rttvar_ms"`
	Phase        string  `json:"phase"`
	Utilization  float64 `json:"utilization"`
	Action       float64 `json:"action"`
	Reward       float64 `json:"reward"`
	Mapped       float64 `json:"mapped_gain"`
	MappedReward float64 `json:"mapped_reward"`
	// LabelSource and GainRewards are written for counterfactual rows
	// only: absent, the label is the surrogate's (eq. 17).
	LabelSource string    `json:"label_source,omitempty"`
	GainRewards []float64 `json:"gain_rewards,omitempty"`
}

// csvHeader lists the columns in record's field order, named as its JSON
// keys.
var csvHeader = []string{"location", "stream", "flow", "i", "t_s", "throughput_bps", "retransmits",
	"cwnd_bytes", "rwnd_bytes", "rtt_ms", "rttvar_ms", "phase", "utilization", "action", "reward",
	"mapped_gain", "mapped_reward"}

func toRecord(r Row) record {
	c := record{Location: r.Source.Location, Stream: r.Source.Stream, Flow: r.Source.Flow, Index: r.Index,
		TS: r.T.Seconds(), Throughput: r.Throughput, Retransmits: r.Retransmits, CWnd: r.CWnd, RWnd: r.RWnd,
		RTTMs: durMs(r.RTT), RTTVarMs: durMs(r.RTTVar), Phase: r.Phase.String(), Utilization: r.Refs.U,
		Action: r.Action, Reward: r.Reward, Mapped: r.Mapped, MappedReward: r.MappedReward}
	if r.LabelSource != LabelSurrogate {
		c.LabelSource, c.GainRewards = r.LabelSource.String(), r.GainRewards
	}
	return c
}

func (c record) fields() []string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []string{c.Location, c.Stream, c.Flow, strconv.Itoa(c.Index), f(c.TS), f(c.Throughput),
		strconv.FormatInt(c.Retransmits, 10), strconv.Itoa(c.CWnd), strconv.Itoa(c.RWnd), f(c.RTTMs),
		f(c.RTTVarMs), c.Phase, f(c.Utilization), f(c.Action), f(c.Reward), f(c.Mapped), f(c.MappedReward)}
}

// WriteCSV writes the pool as CSV with a header row.
func (p *Pool) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	for _, r := range p.Rows {
		if err := cw.Write(toRecord(r).fields()); err != nil {
			return fmt.Errorf("learn: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// WriteJSONL writes the pool as one JSON object per line.
func (p *Pool) WriteJSONL(w io.Writer) error {
	enc := json.NewEncoder(w)
	for _, r := range p.Rows {
		if err := enc.Encode(toRecord(r)); err != nil {
			return fmt.Errorf("learn: %w", err)
		}
	}
	return nil
}

func durMs(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
