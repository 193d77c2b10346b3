package campaign

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// The pool runs every run once, the store holds each once, and a second
// Execute finds nothing to do. Same seed → the same numbers as a direct run.
func TestPoolExecuteAndResume(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	runs := mustExpand(t, smallCampaign)
	var last Progress
	calls := 0
	sum, err := Execute(ctx, runs, st, Pool{Workers: 2, Version: "test"}, Options{Progress: func(p Progress) { last = p; calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != len(runs) || sum.Skipped != 0 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if calls != len(runs)+1 || last.Done != len(runs) || last.Remaining() != 0 {
		t.Fatalf("progress: %d calls, last %+v", calls, last)
	}
	n, _, _, _ := st.Count(ctx)
	if n != len(runs) {
		t.Fatalf("store holds %d runs, want %d", n, len(runs))
	}
	sum, err = Execute(ctx, runs, st, Pool{}, Options{})
	if err != nil || sum.Ran != 0 || sum.Skipped != len(runs) || sum.Stale != 0 {
		t.Fatalf("second execute: %+v %v", sum, err)
	}
	// Resumed by another build, the stored runs are reused and counted
	// as stale; by the same build, not.
	if sum, err = Execute(ctx, runs, st, Pool{}, Options{Version: "other"}); err != nil || sum.Ran != 0 || sum.Stale != len(runs) {
		t.Fatalf("execute as another version: %+v %v, want every run skipped and stale", sum, err)
	}
	if sum, err = Execute(ctx, runs, st, Pool{}, Options{Version: "test"}); err != nil || sum.Stale != 0 {
		t.Fatalf("execute as the same version: %+v %v, want none stale", sum, err)
	}
	for _, r := range runs {
		stored, err := st.Result(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		direct := simulate(t, r)
		for i, f := range direct.Flows {
			if stored.Flows[i].BytesAcked != f.BytesAcked || stored.Flows[i].MeanRTTMs != f.MeanRTTMs {
				t.Fatalf("run %s flow %d: pool %+v, direct %+v", r.Name(), i, stored.Flows[i], f)
			}
		}
		if stored.Version != "test" {
			t.Fatalf("version %q not stamped", stored.Version)
		}
	}
}

// A failing run is counted and reported; the others are stored.
func TestPoolFailure(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	runs := mustExpand(t, smallCampaign)[:3]
	runs[1].Engine = "ns3" // no such engine: the run fails
	sum, err := Execute(ctx, runs, st, Pool{Workers: 2}, Options{})
	if err == nil || !strings.Contains(err.Error(), "1 of 3 runs failed") || !strings.Contains(err.Error(), `engine "ns3"`) {
		t.Fatalf("err %v", err)
	}
	if sum.Ran != 2 || sum.Failed != 1 {
		t.Fatalf("summary %+v", sum)
	}
}

// A cancelled context starts no run.
func TestPoolCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := openTemp(t)
	sum, err := Execute(ctx, mustExpand(t, smallCampaign), st, Pool{Workers: 1}, Options{})
	if !errors.Is(err, context.Canceled) || sum.Ran != 0 {
		t.Fatalf("cancelled: %+v %v", sum, err)
	}
}
