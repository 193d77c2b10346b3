package paper000

import (
	"fmt"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// slotSection is the 15 s reconfiguration-slot profile (throughput and
// retransmissions by second since the last boundary at :12/:27/:42/:57
// UTC) of the Sydney dedicated traces, simulated next to real.
func slotSection(ts []Trace) (report.Section, []string, error) {
	s := report.Section{Title: "The 15 s slot profile: Sydney, simulated and real"}
	s.Text = []string{"Each 1 s interval is placed by its midpoint in the 15 s Starlink reconfiguration slot (boundaries at " +
		":12, :27, :42, :57 of the UTC minute, seed 001; seed 000 Fig. 3), using the run's start time (iperf3's " +
		"start.timestamp, the simulator's epoch_utc); bin k covers [k, k+1) s after a boundary. Real downlink traces " +
		"retransmit most in the second before a boundary (bin 14); the model must show the same burst for the same " +
		"reason, the reconfiguration's outage and allocation reset."}
	tab := report.Table{Title: "Slot profile: the second with most retransmissions", Name: "slot-peaks", Columns: []report.Column{
		{Key: "source", Title: "source", Kind: report.Text}, {Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "cca", Title: "CCA", Kind: report.Text},
		{Key: "peak_second", Title: "peak retransmission second", Kind: report.Int},
		{Key: "peak_share", Title: "share of retransmissions in it", Kind: report.Float, Digits: 2},
	}}
	var notes []string
	for _, dir := range []string{"downlink", "uplink"} {
		var profs []report.SlotProfile
		for _, cca := range []string{bbr, "cubic"} {
			for _, src := range []string{Real, Simulated} {
				t, ok := find(ts, src, campaign.Dedicated, dir, "sydney", cca)
				if !ok {
					continue
				}
				bins := metrics.SlotProfile(metrics.Series(t.Flow), t.Epoch)
				p := report.SlotProfile{Name: src + " " + cca, Key: cca}
				var total int64
				for i, b := range bins {
					p.Throughput[i], p.Retransmits[i] = b.ThroughputBps/1e6, b.RetransMean
					total += b.Retransmits
				}
				profs = append(profs, p)
				peak := metrics.PeakRetransBin(bins)
				share := 0.0
				if total > 0 {
					share = float64(bins[peak].Retransmits) / float64(total)
				}
				tab.Rows = append(tab.Rows, []report.Cell{report.Str(src), report.Str(dir), report.Str(cca),
					report.Count(int64(peak)), report.Num(share)})
				notes = append(notes, fmt.Sprintf("Slot profile, %s %s %s: retransmissions peak in second %d (%.0f %% of them).",
					src, dir, cca, peak, 100*share))
			}
		}
		if len(profs) == 0 {
			continue
		}
		for _, m := range []struct {
			metric report.SlotMetric
			name   string
		}{{report.SlotRetransmits, "retransmissions"}, {report.SlotThroughput, "throughput"}} {
			f, err := report.SlotPlot(fmt.Sprintf("15 s slot profile (%s, Sydney): %s", dir, m.name), m.metric, profs)
			if err != nil {
				return s, nil, err
			}
			f.Name = "slot-" + dir + "-" + m.name
			f.Caption = fmt.Sprintf("Sydney dedicated %s, mean %s per second of the slot; hollow bars are the simulated twin "+
				"of the filled real ones. The real traces (shared/data README) cluster downlink retransmissions in the second "+
				"before :12/:27/:42/:57.", dir, m.name)
			s.Figures = append(s.Figures, f)
		}
	}
	s.Tables = append(s.Tables, tab)
	return s, notes, nil
}
