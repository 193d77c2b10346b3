package campaign

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/leolab/leolab/result"
)

// Outcome is one finished run: its result or the error that ended it.
type Outcome struct {
	Run    Run
	Result *result.Result
	Err    error
	Worker string // who ran it: "local" or a remote worker's name
}

// Executor runs runs. It calls done once per run, from one goroutine at a
// time, and stops early when done returns an error or ctx is cancelled.
type Executor interface {
	Execute(ctx context.Context, runs []Run, done func(Outcome) error) error
}

// Progress is the state of a campaign for a progress display.
type Progress struct {
	Total   int           // runs in the campaign
	Skipped int           // runs already in the store when it started
	Done    int           // runs finished (stored) in this session
	Failed  int           // runs that ended in an error in this session
	Elapsed time.Duration // since this session started
	// ETA is the estimated time to the end from the pace of this session;
	// 0 until a run has finished.
	ETA  time.Duration
	Last string // the run that finished last, with its outcome
}

// Remaining is the number of runs still to do.
func (p Progress) Remaining() int { return p.Total - p.Skipped - p.Done - p.Failed }

// Options configure Execute.
type Options struct {
	Progress func(Progress)   // called after every run (nil: none)
	Now      func() time.Time // clock for elapsed time and ETA (nil: time.Now)
	// Version is the running leolab's version; stored runs made by
	// another are counted in Summary.Stale (they are still reused: a
	// store resumes what was run, not what this build would run).
	Version string
}

// Summary is what Execute did.
type Summary struct {
	Total, Skipped, Ran, Failed int
	// Stale counts the skipped runs that another leolab version made
	// (Options.Version): their results are that version's.
	Stale int
	Wall  time.Duration
}

// Execute runs the runs that are not yet in the store on exec and stores
// each one as it finishes, so that running it again after a kill finishes
// only what is missing. Failed runs are not stored; they are counted and the
// first failure is returned after everything else has run.
func Execute(ctx context.Context, runs []Run, st *Store, exec Executor, opt Options) (Summary, error) {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	done, err := st.Versions(ctx)
	if err != nil {
		return Summary{}, err
	}
	var pending []Run
	stale := 0
	for _, r := range runs {
		v, ok := done[r.ID]
		switch {
		case !ok:
			pending = append(pending, r)
		case opt.Version != "" && v != opt.Version:
			stale++
		}
	}
	p := Progress{Total: len(runs), Skipped: len(runs) - len(pending)}
	report := func() {
		if opt.Progress != nil {
			opt.Progress(p)
		}
	}
	report()
	var firstFail error
	err = exec.Execute(ctx, pending, func(o Outcome) error {
		p.Last = o.Run.Name()
		if o.Err != nil {
			p.Failed++
			p.Last += ": " + o.Err.Error()
			if firstFail == nil {
				firstFail = fmt.Errorf("run %s (%s): %w", o.Run.ID, o.Run.Name(), o.Err)
			}
		} else if _, err := st.Put(ctx, o.Run, o.Result); err != nil {
			return err
		} else {
			p.Done++
		}
		p.Elapsed = now().Sub(start)
		if fin := p.Done + p.Failed; fin > 0 {
			p.ETA = time.Duration(float64(p.Elapsed) / float64(fin) * float64(p.Remaining()))
		}
		report()
		return nil
	})
	sum := Summary{Total: p.Total, Skipped: p.Skipped, Ran: p.Done, Failed: p.Failed, Stale: stale, Wall: now().Sub(start)}
	if err != nil {
		return sum, err
	}
	if firstFail != nil {
		return sum, fmt.Errorf("%d of %d runs failed; first: %w", p.Failed, len(pending), firstFail)
	}
	if p.Done != len(pending) {
		return sum, errors.New("campaign: executor finished without running every run")
	}
	return sum, nil
}
