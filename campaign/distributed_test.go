package campaign

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	natstest "github.com/nats-io/nats-server/v2/test"
)

// startNATS starts an embedded NATS server with JetStream on a random port
// of 127.0.0.1, storing in a temporary directory (nats-server's own test
// helper: it waits until the server accepts connections, and panics if it
// cannot start).
func startNATS(t *testing.T) string {
	s := natstest.RunServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}

// Two in-process workers on an embedded server give the same stored numbers
// as the local pool; a second Execute has nothing to do.
func TestDistributedMatchesPool(t *testing.T) {
	url := startNATS(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ran := map[string]int{}
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := Worker{URL: url, Workers: 1, Name: string(rune('A' + i)), Log: func(line string) {
				// "ID NAME done": JetStream delivers at least once, so a
				// run redelivered on a loaded machine (AckWait passed) may
				// be done twice; each must be done at least once.
				if id, _, ok := strings.Cut(line, " "); ok && strings.HasSuffix(line, " done") {
					mu.Lock()
					ran[id]++
					mu.Unlock()
				}
			}}
			if err := w.Serve(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	runs := mustExpand(t, smallCampaign)
	dist, local := openTemp(t), openTemp(t)
	sum, err := Execute(ctx, runs, dist, Distributed{URL: url, AckWait: 5 * time.Second}, Options{})
	if err != nil || sum.Ran != len(runs) {
		t.Fatalf("distributed: %+v %v", sum, err)
	}
	if _, err := Execute(ctx, runs, local, Pool{Workers: 2}, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		a, err1 := dist.Result(ctx, r.ID)
		b, err2 := local.Result(ctx, r.ID)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if len(a.Flows) != len(b.Flows) || a.Fairness.Jain != b.Fairness.Jain {
			t.Fatalf("run %s: distributed %+v, local %+v", r.Name(), a, b)
		}
		for i := range a.Flows {
			fa, fb := a.Flows[i], b.Flows[i]
			if fa.BytesAcked != fb.BytesAcked || fa.Retransmits != fb.Retransmits || fa.MeanRTTMs != fb.MeanRTTMs ||
				!reflect.DeepEqual(fa.Intervals, fb.Intervals) {
				t.Fatalf("run %s flow %d differs: %+v vs %+v", r.Name(), i, fa, fb)
			}
		}
	}
	sum, err = Execute(ctx, runs, dist, Distributed{URL: url}, Options{})
	if err != nil || sum.Ran != 0 || sum.Skipped != len(runs) {
		t.Fatalf("rerun: %+v %v", sum, err)
	}
	cancel()
	wg.Wait()
	for _, r := range runs {
		if ran[r.ID] == 0 {
			t.Errorf("run %s (%s): no worker reported it done (%v)", r.ID, r.Name(), ran)
		}
	}
	if len(ran) != len(runs) {
		t.Errorf("workers reported %d distinct runs done, want %d (%v)", len(ran), len(runs), ran)
	}
}

// A worker started before any campaign waits for one and stops cleanly.
func TestWorkerWaitsForCampaign(t *testing.T) {
	url := startNATS(t)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := (Worker{URL: url, Workers: 1}).Serve(ctx); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < time.Second {
		t.Fatal("worker returned before it was cancelled")
	}
	if err := (Worker{URL: "nats://127.0.0.1:1"}).Serve(context.Background()); err == nil {
		t.Fatal("no error for an unreachable server")
	}
}
