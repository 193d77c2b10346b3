package campaign

import (
	"embed"
	"math"

	"github.com/leolab/leolab/iperf"
)

// realFiles holds the seed-000 end summaries, copied unchanged from
// ../shared/data/starlink-iperf3, and runs2to5_competitive_summary.csv,
// extracted the same way from the public dataset's raw logs; provenance
// in realdata/README.md.
//
//go:embed realdata/*.csv realdata/README.md
var realFiles embed.FS

// realSummaries are the embedded CSVs read by RealData.
// runs2to5_summary.csv repeats the Sydney downlink runs of
// runs2to5_sydney_downlink_summary.csv; RealData counts each (scenario,
// city, CCA, run) once.
func realSummaries() []string {
	return []string{"realdata/run1_summary.csv", "realdata/runs2to5_sydney_downlink_summary.csv",
		"realdata/runs2to5_summary.csv", "realdata/runs2to5_competitive_summary.csv"}
}

// RealProvenance is the provenance line of the embedded real data.
func RealProvenance() string {
	return "seed-000 dataset (MPTCP-FreeBSD/tcp-cc-starlink): iperf3 3.16 end summaries, 300 s runs, " +
		"April 2026, Starlink dish in Melbourne to AWS London, Mumbai, Ohio, São Paulo, Sydney " +
		"(Tokyo held back); 5-run means (runs 1–5) of every dedicated and concurrent cell (ccp, excluded " +
		"from the comparisons: run 1, runs 1–5 in Sydney downlink dedicated)"
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
	runs, err := RealRuns()
	if err != nil {
		return nil, err
	}
	return RealMeans(runs), nil
}

// ReadReal reads end-summary CSVs (the dataset's layout; see
// iperf.ReadSummary) into per-key means, as RealData does for the embedded
// copy.
func ReadReal(paths []string) (map[Key]Metrics, error) {
	runs, err := ReadRealRuns(paths)
	if err != nil {
		return nil, err
	}
	return RealMeans(runs), nil
}

// ReadRealRuns reads end-summary CSVs run by run, as RealRuns does for the
// embedded copy (duplicates are kept: RealMeans and RealSpreads count each
// (scenario, city, CCA, run) once).
func ReadRealRuns(paths []string) ([]iperf.Summary, error) {
	var all []iperf.Summary
	for _, p := range paths {
		rows, err := iperf.ReadSummaryFile(p)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
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
		k := summaryKey(s)
		rk := runKey{k, s.Run}
		if seen[rk] {
			continue
		}
		seen[rk] = true
		m := sums[k]
		v := summaryMetrics(s)
		m.ThroughputMbps += v[0]
		if !math.IsNaN(v[1]) {
			m.RetransPerGB += v[1]
		}
		if !math.IsNaN(v[2]) {
			m.RTTInflation += v[2]
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
