package campaign

import (
	"bytes"
	"embed"
	"fmt"
	"strings"

	"github.com/leolab/leolab/iperf"
)

// realFiles holds the seed-000 end summaries, copied unchanged from
// ../shared/data/starlink-iperf3 with their provenance (realdata/README.md).
//
//go:embed realdata/*.csv realdata/README.md
var realFiles embed.FS

// realSummaries are the embedded CSVs read by RealData.
// runs2to5_summary.csv repeats the Sydney downlink runs of
// runs2to5_sydney_downlink_summary.csv; RealData counts each (scenario,
// city, CCA, run) once.
func realSummaries() []string {
	return []string{"realdata/run1_summary.csv", "realdata/runs2to5_sydney_downlink_summary.csv",
		"realdata/runs2to5_summary.csv"}
}

// RealProvenance is the provenance line of the embedded real data.
func RealProvenance() string {
	return "seed-000 dataset (MPTCP-FreeBSD/tcp-cc-starlink): iperf3 3.16 end summaries, 300 s runs, " +
		"April 2026, Starlink dish in Melbourne to AWS London, Mumbai, Ohio, São Paulo, Sydney " +
		"(Tokyo held back); 5-run means (runs 1–5) of every dedicated cell and of the Sydney and Ohio " +
		"concurrent runs, run 1 elsewhere (São Paulo downlink concurrent: runs 1–2)"
}

// RealReadme is the embedded real data's README with its full provenance.
func RealReadme() string {
	b, _ := realFiles.ReadFile("realdata/README.md")
	return string(b)
}

// Key names one comparison cell: a scenario kind, direction, city (profile
// name, lower case) and CCA (dataset name where one exists, e.g. ccp).
type Key struct {
	Kind, Direction, City, CCA string
}

// Metrics are the seed-000 per-flow metrics (Fig. 9/10).
type Metrics struct {
	ThroughputMbps float64 // mean over the run (Mbit/s)
	RetransPerGB   float64 // retransmitted segments per 10^9 bytes sent
	RTTInflation   float64 // mean RTT / min RTT
	N              int     // runs averaged
}

// RealData returns the real measurements, averaged over the runs of each key
// (runs 1–5 wherever the dataset has them, run 1 elsewhere; seed 000's
// figures are 10-run means, and run 1 alone is a noisy target: uplink bbr
// Sydney run 1 27.0 Mbit/s, mean of runs 1–5 19.5); see RealMeans.
func RealData() (map[Key]Metrics, error) {
	var all []iperf.Summary
	for _, name := range realSummaries() {
		data, err := realFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("real data: %w", err)
		}
		rows, err := iperf.ReadSummary(name, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("real data: %w", err)
		}
		all = append(all, rows...)
	}
	return RealMeans(all), nil
}

// ReadReal reads end-summary CSVs (the dataset's layout; see
// iperf.ReadSummary) into per-key means, as RealData does for the embedded
// copy.
func ReadReal(paths []string) (map[Key]Metrics, error) {
	var all []iperf.Summary
	for _, p := range paths {
		rows, err := iperf.ReadSummaryFile(p)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return RealMeans(all), nil
}

// RealMeans averages end summaries per key, counting each (scenario, city,
// CCA, run) once: throughput = sender bits/s (downlink logs are the
// server's, whose receiver columns are 0), retransmissions per GB =
// retransmits / (sender bytes/1e9), RTT inflation = mean RTT / min RTT
// (seed 000 definitions).
func RealMeans(rows []iperf.Summary) map[Key]Metrics {
	sums := map[Key]Metrics{}
	type runKey struct {
		Key
		run int
	}
	seen := map[runKey]bool{}
	for _, s := range rows {
		kind := Dedicated
		if s.Concurrent {
			kind = Concurrent
		}
		k := Key{Kind: kind, Direction: s.Direction, City: strings.ToLower(s.City), CCA: s.CCA}
		rk := runKey{k, s.Run}
		if seen[rk] {
			continue
		}
		seen[rk] = true
		m := sums[k]
		m.ThroughputMbps += s.SenderBps / 1e6
		if s.SenderBytes > 0 {
			m.RetransPerGB += float64(s.Retransmits) / (float64(s.SenderBytes) / 1e9)
		}
		if s.MinRTT > 0 {
			m.RTTInflation += float64(s.MeanRTT) / float64(s.MinRTT)
		}
		m.N++
		sums[k] = m
	}
	for k, m := range sums {
		n := float64(m.N)
		sums[k] = Metrics{m.ThroughputMbps / n, m.RetransPerGB / n, m.RTTInflation / n, m.N}
	}
	return sums
}
