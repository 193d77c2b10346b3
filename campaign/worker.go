package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/leolab/leolab/result"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Worker timing.
const (
	// workerFetchWait is how long one fetch waits for a run before the
	// worker checks ctx and its idle limit again.
	workerFetchWait = 2 * time.Second
	// consumerPoll is how often a worker started before any campaign looks
	// for the runs consumer.
	consumerPoll = time.Second
)

// Worker pulls runs from the JetStream work queue, runs them and publishes
// the results. It acknowledges a run only after its result is stored in
// JetStream, and heartbeats while running, so a run is lost only together
// with its worker and is then redelivered to another one after AckWait.
type Worker struct {
	URL string
	// Workers is the number of runs at once (0: GOMAXPROCS).
	Workers int
	// Name identifies the worker in results (default host:pid).
	Name string
	// Version is stamped into every result.
	Version string
	// IdleExit ends Serve after this long without a run (0: never).
	IdleExit time.Duration
	// Log receives one line per finished run (nil: none).
	Log func(string)
}

// Serve processes runs until ctx is cancelled (or IdleExit passes).
func (w Worker) Serve(ctx context.Context) error {
	if w.Name == "" {
		host, _ := os.Hostname()
		w.Name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	n := w.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	nc, err := nats.Connect(w.URL, nats.Name("leolab worker "+w.Name), nats.MaxReconnects(-1))
	if err != nil {
		return fmt.Errorf("nats %s: %w", w.URL, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("nats %s: %w", w.URL, err)
	}
	cons, err := waitConsumer(ctx, js)
	if err != nil || cons == nil {
		return err // nil: cancelled while waiting
	}
	ackWait := cons.CachedInfo().Config.AckWait
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = w.loop(ctx, js, cons, ackWait)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// waitConsumer waits for a coordinator to create the runs consumer.
func waitConsumer(ctx context.Context, js jetstream.JetStream) (jetstream.Consumer, error) {
	for {
		c, err := js.Consumer(ctx, RunsStream, workerConsumer)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, jetstream.ErrConsumerNotFound) && !errors.Is(err, jetstream.ErrStreamNotFound) {
			return nil, fmt.Errorf("jetstream consumer %s: %w", workerConsumer, err)
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(consumerPoll):
		}
	}
}

// loop fetches and runs one run at a time.
func (w Worker) loop(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, ackWait time.Duration) error {
	idleSince := time.Now()
	for ctx.Err() == nil {
		if w.IdleExit > 0 && time.Since(idleSince) > w.IdleExit {
			return nil
		}
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(workerFetchWait))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("nats: fetch runs: %w", err)
		}
		for msg := range batch.Messages() {
			if err := w.handle(ctx, js, msg, ackWait); err != nil {
				// The run stays unacknowledged and comes back after AckWait.
				w.logf("%v", err)
			}
			idleSince = time.Now()
		}
	}
	return nil
}

// handle runs one task, publishes its outcome and acknowledges it.
func (w Worker) handle(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, ackWait time.Duration) error {
	var t task
	if err := json.Unmarshal(msg.Data(), &t); err != nil {
		return msg.TermWithReason("not a leolab run: " + err.Error())
	}
	w.logf("%s %s started", t.Run.ID, t.Run.Name())
	stop := heartbeat(msg, ackWait)
	o := runOne(ctx, t.Run, w.Version)
	stop()
	data, err := encodeOutcome(o, w.Name)
	if err != nil {
		return err
	}
	if _, err := js.Publish(ctx, t.Reply, data, jetstream.WithMsgID(t.Reply+"."+t.Run.ID)); err != nil {
		return fmt.Errorf("nats: publish result of run %s: %w", t.Run.ID, err)
	}
	// The outcome is published (and deduplicated by its message ID): the
	// run is done whether or not the acknowledgement below reaches the
	// server; if it does not, the run comes back after AckWait and its
	// second outcome is dropped as a duplicate.
	status := "done"
	if o.Err != nil {
		status = "failed: " + o.Err.Error()
	}
	w.logf("%s %s %s", t.Run.ID, t.Run.Name(), status)
	if err := msg.DoubleAck(ctx); err != nil {
		return fmt.Errorf("nats: ack run %s: %w", t.Run.ID, err)
	}
	return nil
}

func (w Worker) logf(format string, args ...any) {
	if w.Log != nil {
		w.Log(fmt.Sprintf(format, args...))
	}
}

// heartbeat tells JetStream the run is in progress until stop is called.
func heartbeat(msg jetstream.Msg, ackWait time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(max(ackWait/heartbeatsPerAckWait, 10*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				msg.InProgress()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// encodeOutcome compresses an outcome for the results stream. The link
// series and the controllers' internal state are dropped: the store keeps
// neither.
func encodeOutcome(o Outcome, worker string) ([]byte, error) {
	m := outcomeMsg{RunID: o.Run.ID, Worker: worker}
	if o.Err != nil {
		m.Err = o.Err.Error()
	} else {
		raw, err := json.Marshal(slim(o.Result))
		if err != nil {
			return nil, fmt.Errorf("run %s: %w", o.Run.ID, err)
		}
		m.Result = raw
	}
	return gzipJSON(m)
}

// slim returns a copy of res without link series and Interval.CC.
func slim(res *result.Result) *result.Result {
	out := *res
	out.Links = append([]result.Link(nil), res.Links...)
	for i := range out.Links {
		out.Links[i].Intervals = nil
	}
	out.Flows = append([]result.Flow(nil), res.Flows...)
	for i := range out.Flows {
		ivs := append([]result.Interval(nil), out.Flows[i].Intervals...)
		for j := range ivs {
			ivs[j].CC = nil
		}
		out.Flows[i].Intervals = ivs
	}
	return &out
}
