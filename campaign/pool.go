package campaign

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Pool executes runs on this machine, one goroutine per worker.
type Pool struct {
	// Workers is the number of runs at once; 0 means GOMAXPROCS for the
	// simulator (a simulation is single-threaded and CPU-bound) and 1 for
	// the emulator (live runs need the cores for the pump's timing).
	Workers int
	// Version is stamped into every result (the leolab version).
	Version string
}

// Execute runs every run and hands the outcomes to done in completion
// order. When ctx is cancelled no new run starts; runs already started
// finish and are handed over.
func (p Pool) Execute(ctx context.Context, runs []Run, done func(Outcome) error) error {
	n := p.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
		if len(runs) > 0 && runs[0].Engine == EngineEmu {
			n = 1
		}
	}
	n = min(n, len(runs))
	todo := make(chan Run)
	outs := make(chan Outcome)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range todo {
				outs <- runOne(ctx, r, p.Version)
			}
		}()
	}
	go func() {
		defer close(todo)
		for _, r := range runs {
			select {
			case todo <- r:
			case <-ctx.Done():
				return
			case <-stop:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(outs) }()
	var err error
	for o := range outs {
		if err == nil {
			if err = done(o); err != nil {
				close(stop)
			}
		}
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

// runOne runs r on its engine and records the wall time it took.
func runOne(ctx context.Context, r Run, version string) Outcome {
	eng, err := EngineFor(r.Engine)
	if err != nil {
		return Outcome{Run: r, Err: err, Worker: "local"}
	}
	start := time.Now()
	res, err := eng.Run(ctx, r)
	if err != nil {
		return Outcome{Run: r, Err: err, Worker: "local"}
	}
	res.WallS = time.Since(start).Seconds()
	res.Version = version
	return Outcome{Run: r, Result: res, Worker: "local"}
}
