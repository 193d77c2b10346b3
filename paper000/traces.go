package paper000

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
)

// Sources of a trace.
const (
	Real      = "real"
	Simulated = "simulated"
)

// bbr is the dataset's name of BBRv3 (campaign.DatasetCCAs).
const bbr = "bbr"

// Trace is one flow's per-interval series with what it stands for.
type Trace struct {
	Source                     string // Real or Simulated
	Kind, Direction, City, CCA string // CCA: the dataset's name (bbr = BBRv3)
	Seed                       uint64 // simulated runs only
	Epoch                      time.Time
	Flow                       result.Flow
}

// Name is a short label, e.g. "real downlink sydney bbr".
func (t Trace) Name() string {
	return strings.Join([]string{t.Source, t.Direction, t.City, t.CCA}, " ")
}

// realFiles are the real Sydney traces (realtraces/README.md).
//
//go:embed realtraces/*.csv realtraces/README.md
var realFiles embed.FS

// realTraceFiles names each embedded trace's direction and CCA.
var realTraceFiles = []struct{ file, direction, cca string }{
	{"downlink_Sydney_bbr_run1.csv", "downlink", bbr},
	{"downlink_Sydney_cubic_run1.csv", "downlink", "cubic"},
	{"uplink_Sydney_bbr_run1.csv", "uplink", bbr},
}

// RealTraces reads the embedded real traces: run 1 of the Sydney dedicated
// downlink BBRv3 and CUBIC and uplink BBRv3 logs.
func RealTraces() ([]Trace, error) {
	var out []Trace
	for _, f := range realTraceFiles {
		data, err := realFiles.ReadFile("realtraces/" + f.file)
		if err != nil {
			return nil, fmt.Errorf("paper000: %w", err)
		}
		run, err := iperf.ReadTrace(f.file, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("paper000: %w", err)
		}
		flows := run.Flows()
		if len(flows) != 1 {
			return nil, fmt.Errorf("paper000: %s: %d streams, want 1", f.file, len(flows))
		}
		out = append(out, Trace{Source: Real, Kind: campaign.Dedicated, Direction: f.direction, City: "sydney",
			CCA: f.cca, Epoch: run.Start, Flow: flows[0]})
	}
	return out, nil
}

// wanted says which simulated flows the figures use: BBRv3 on every
// downlink (Fig. 13, dedicated and concurrent), and the Sydney dedicated
// runs the real traces have twins of (Figs. 11, 12, slot profile).
func wanted(r campaign.Run, cca string) bool {
	if cca == bbr && r.Direction == "downlink" {
		return true
	}
	if r.City != "sydney" || r.Kind != campaign.Dedicated {
		return false
	}
	return slices.ContainsFunc(realTraceFiles, func(f struct{ file, direction, cca string }) bool {
		return f.direction == r.Direction && f.cca == cca
	})
}

// SimTraces loads from the store the simulated flows the figures use, from
// the lowest seed of each cell (the quick campaign has one). Runs missing
// from the store (failed) are skipped; other store errors are returned.
func SimTraces(ctx context.Context, st *campaign.Store, runs []campaign.Run) ([]Trace, error) {
	seed := map[[4]string]uint64{}
	for _, r := range runs {
		k := [4]string{r.Kind, r.Direction, r.City, strings.Join(r.CCAs, ",")}
		if s, ok := seed[k]; !ok || r.Seed < s {
			seed[k] = r.Seed
		}
	}
	var out []Trace
	for _, r := range runs {
		if seed[[4]string{r.Kind, r.Direction, r.City, strings.Join(r.CCAs, ",")}] != r.Seed {
			continue
		}
		idx := -1
		for i, c := range r.CCAs {
			if wanted(r, c) {
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		res, err := st.Result(ctx, r.ID)
		if errors.Is(err, campaign.ErrNotStored) {
			continue // a failed run: the figure goes without it
		}
		if err != nil {
			return nil, err
		}
		tr, err := simTrace(r, res, idx)
		if err != nil {
			return nil, err
		}
		out = append(out, tr)
	}
	return out, nil
}

func simTrace(r campaign.Run, res *result.Result, idx int) (Trace, error) {
	if idx >= len(res.Flows) {
		return Trace{}, fmt.Errorf("paper000: run %s: %d flows, want flow %d", r.ID, len(res.Flows), idx)
	}
	ep, err := time.Parse(time.RFC3339Nano, res.EpochUTC)
	if err != nil {
		return Trace{}, fmt.Errorf("paper000: run %s: epoch_utc %q: %w", r.ID, res.EpochUTC, err)
	}
	return Trace{Source: Simulated, Kind: r.Kind, Direction: r.Direction, City: r.City, CCA: r.CCAs[idx],
		Seed: r.Seed, Epoch: ep, Flow: res.Flows[idx]}, nil
}

// find returns the first trace matching source, kind, direction, city and
// CCA.
func find(ts []Trace, source, kind, dir, city, cca string) (Trace, bool) {
	for _, t := range ts {
		if t.Source == source && t.Kind == kind && t.Direction == dir && t.City == city && t.CCA == cca {
			return t, true
		}
	}
	return Trace{}, false
}
