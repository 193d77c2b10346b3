package campaign

import (
	"bytes"
	"fmt"

	"github.com/leolab/leolab/iperf"
)

// RealRuns returns the embedded real end summaries run by run (the rows
// RealData averages), each (scenario, city, CCA, run) once, in file order:
// for figures that show the spread over runs (seed 003's boxes) rather
// than the mean.
func RealRuns() ([]iperf.Summary, error) {
	type runKey struct {
		scenario, city, cca string
		run                 int
	}
	seen := map[runKey]bool{}
	var out []iperf.Summary
	for _, name := range realSummaries() {
		data, err := realFiles.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("real data: %w", err)
		}
		rows, err := iperf.ReadSummary(name, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("real data: %w", err)
		}
		for _, r := range rows {
			k := runKey{r.Scenario, r.City, r.CCA, r.Run}
			if !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	return out, nil
}
