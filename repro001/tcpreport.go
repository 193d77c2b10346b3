package repro001

import (
	"fmt"

	"github.com/leolab/leolab/report"
)

// tcpSection shows the slow-start and recovery runs (default profile).
func (st *Study) tcpSection() (report.Section, error) {
	var ss []report.Series
	t := report.Table{Title: "Slow start on the downlink (first seconds)", Name: "slow-start", Columns: []report.Column{
		{Key: "variant", Title: "slow start", Kind: report.Text},
		{Key: "mbps_2s", Title: "throughput, first 2 s", Unit: "Mbit/s", Kind: report.Float, Digits: 1},
		{Key: "mbps_5s", Title: "throughput, first 5 s", Unit: "Mbit/s", Kind: report.Float, Digits: 1},
		{Key: "retransmits_5s", Title: "retransmissions, first 5 s", Kind: report.Int},
		{Key: "first_loss_s", Title: "first retransmission", Unit: "s", Kind: report.Float, Digits: 1},
		{Key: "peak_cwnd_mb", Title: "largest cwnd", Unit: "MB", Kind: report.Float, Digits: 2},
	}}
	for _, s := range st.SlowStart {
		ss = append(ss, report.Series{Name: s.Name, Key: s.CCA, Unit: "Mbit/s", T: s.T, V: s.Mbps})
		t.Rows = append(t.Rows, []report.Cell{report.Str(s.Name), report.Num(s.Mbps2s), report.Num(s.Mbps5s),
			report.Count(s.Retransmits5s), report.Num(s.FirstLossS), report.Num(s.PeakCwnd)})
	}
	sf, err := report.TimeSeries("Slow start: HyStart, HyStart++ and none (downlink)", "throughput (100 ms)", ss, report.SeriesOptions{})
	if err != nil {
		return report.Section{}, err
	}
	sf.Name = "slow-start"
	sf.Caption = "Paper (finding 20): slow start must build queue pressure to earn the allocation; HyStart++-like exits come too early and leave capacity unused, exponential growth overshoots into heavy AQM and buffer losses. " +
		"Measured: " + slowStartSummary(st.SlowStart) + "."
	var rs []report.Series
	rt := report.Table{Title: "Recovery after a reconfiguration (downlink)", Name: "recovery", Columns: []report.Column{
		{Key: "cca", Title: "CCA", Kind: report.Text},
		{Key: "before_mbps", Title: "throughput, 3 s before", Unit: "Mbit/s", Kind: report.Float, Digits: 1},
		{Key: "after_1s_mbps", Title: "throughput, 1 s after", Unit: "Mbit/s", Kind: report.Float, Digits: 1},
		{Key: "recover_s", Title: "back to 90 %", Unit: "s", Kind: report.Float, Digits: 2},
		{Key: "boundaries", Title: "boundaries", Kind: report.Int},
	}}
	for _, r := range st.Recovery {
		key := r.CCA
		if key == "satcp" {
			key = "cubic" // CUBIC told of handovers: CUBIC's colour, dashed
		}
		rs = append(rs, report.Series{Name: r.CCA, Key: key, Unit: "Mbit/s", T: r.T, V: r.Mbps})
		rt.Rows = append(rt.Rows, []report.Cell{report.Str(r.CCA), report.Num(r.Before), report.Num(r.After1s), report.Num(r.Recover), report.Count(int64(r.Boundaries))})
	}
	rf, err := report.TimeSeries("Recovery after a reconfiguration, per CCA (downlink)", "throughput (100 ms)", rs, report.SeriesOptions{Boundaries: st.Boundaries})
	if err != nil {
		return report.Section{}, err
	}
	rf.Name = "recovery"
	rf.Caption = "Paper (findings 21–23): model-based CCAs (BBR) keep the queue pressure the allocation needs and beat loss-based ones; after a reconfiguration every CCA restarts lower and recovers slowly and incompletely; stall-and-flush schemes (SatPipe) delay the recovery. " +
		"Measured: " + recoverySummary(st.Recovery) + " (the table has the numbers; – in it: not back to 90 % within the slot)."
	return report.Section{Title: "TCP: slow start and recovery (findings 20–23)", Text: []string{
		"These runs are about the senders, not the link, and the paper gives no numbers for them: the report shows what the model makes of each finding; nothing here is compared with a profile value.",
	}, Tables: []report.Table{t, rt}, Figures: []*report.Figure{sf, rf}}, nil
}

func slowStartSummary(ss []SlowStart) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("%s %.0f Mbit/s over 5 s with %d retransmissions", s.Name, s.Mbps5s, s.Retransmits5s)
	}
	return out
}

func recoverySummary(rs []Recovery) string {
	out := ""
	for i, r := range rs {
		if i > 0 {
			out += "; "
		}
		out += fmt.Sprintf("%s %.0f → %.0f Mbit/s in the first second", r.CCA, r.Before, r.After1s)
	}
	return out
}
