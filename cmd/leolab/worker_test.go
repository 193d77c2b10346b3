package main

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/nats-io/nats-server/v2/server"
	natstest "github.com/nats-io/nats-server/v2/test"
)

// workerProc is a `leolab worker` process and the lines it logged.
type workerProc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	lines  []string
	done   chan struct{}
	killed string // id of the run the worker was killed in, if kill said so
}

// startWorker starts a worker. When kill is not nil it sees the status of
// each new line the worker logs (runEvent), and a true return kills the
// worker with SIGKILL at once,
// from the goroutine reading its log, so the kill lands while the run just
// announced is still in flight (a poll from the test's goroutine can lag a
// whole run on a loaded machine).
func startWorker(t *testing.T, url, name string, kill func(w *workerProc, status string) bool) *workerProc {
	t.Helper()
	w := &workerProc{cmd: cliProcess(t, "worker", "--nats", url, "--workers", "1", "--name", name), done: make(chan struct{})}
	stderr, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			w.mu.Lock()
			w.lines = append(w.lines, sc.Text())
			w.mu.Unlock()
			if id, status := runEvent(sc.Text()); kill != nil && w.killed == "" && kill(w, status) {
				w.cmd.Process.Signal(syscall.SIGKILL)
				w.mu.Lock()
				w.killed = id
				w.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { w.cmd.Process.Kill(); w.cmd.Wait() })
	return w
}

// runs returns the ids the worker logged with the given status.
func (w *workerProc) runs(status string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var ids []string
	for _, l := range w.lines {
		if id, st := runEvent(l); st == status {
			ids = append(ids, id)
		}
	}
	return ids
}

// runEvent parses a worker's log line "<time> <run id> <name> <status>"
// ("", "" for other lines).
func runEvent(line string) (id, status string) {
	f := strings.Fields(line)
	if len(f) != 4 {
		return "", ""
	}
	return f[1], f[3]
}

// distCampaign: 8 Starlink runs of 0.2–0.3 s each. None may be quick: the
// test kills worker A as it announces its second run and needs that run
// still in flight (a 30 s Sydney CUBIC run takes 40 ms, and twice A
// finished one before the kill landed under a full go test ./...).
const distCampaign = `version: 1
name: dist
duration: 30s
runs: 2
axes:
  cca: [bbr, bbr1, bbr2, leocc]
  city: [sydney]
  direction: [downlink]
`

// Acceptance 4: two worker processes on an embedded NATS server give the
// same stored results as the local pool; SIGKILL one worker in the middle
// of a run and every run still completes (the run is redelivered after
// --ack-wait to the other worker).
func TestWorkersDistributed(t *testing.T) {
	needCampaignCmds(t)
	// An embedded JetStream server on a random port (nats-server's test
	// helper waits until it accepts connections).
	srv := natstest.RunServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	t.Cleanup(srv.Shutdown) // runs after the workers are killed (cleanups are LIFO)
	url := srv.ClientURL()
	file := writeFile(t, "dist.yaml", distCampaign)
	dir := t.TempDir()
	// Kill A once it has finished one run and started the next.
	a := startWorker(t, url, "A", func(w *workerProc, status string) bool {
		return status == "started" && len(w.runs("done")) >= 1
	})
	b := startWorker(t, url, "B", nil)
	type outcome struct {
		code     int
		out, err string
	}
	res := make(chan outcome, 1)
	go func() {
		code, out, errOut := runCLI("campaign", "run", file, "--nats", url, "--ack-wait", "2s", "--store", filepath.Join(dir, "d.db"), "--no-progress")
		res <- outcome{code, out, errOut}
	}()
	// Generous: under a full `go test ./...` on 2 cores, live tests'
	// real-time threads leave the workers little CPU for a while.
	select {
	case <-a.done:
	case <-time.After(180 * time.Second):
		t.Fatal("worker A never started a second run")
	}
	a.mu.Lock()
	inFlight := a.killed
	a.mu.Unlock()
	if inFlight == "" {
		t.Fatalf("worker A exited without being killed:\n%s", strings.Join(a.lines, "\n"))
	}
	var o outcome
	select {
	case o = <-res:
	case <-time.After(90 * time.Second):
		t.Fatal("the distributed campaign did not finish after a worker died")
	}
	if o.code != 0 || !strings.Contains(o.out, "8 runs: 0 stored before, 8 ran, 0 failed") {
		t.Fatalf("distributed run: exit %d\n%s\n%s", o.code, o.out, o.err)
	}
	// A worker logs "done" after it has published the result and acked
	// the run, so the campaign can finish before B's line is written (or
	// read here): wait for it a while.
	for deadline := time.Now().Add(30 * time.Second); !contains(b.runs("done"), inFlight) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	aDone, bDone := a.runs("done"), b.runs("done")
	if !contains(bDone, inFlight) || contains(aDone, inFlight) {
		t.Fatalf("run %s, in flight on A when it died, was not finished by B (A %v, B %v)", inFlight, aDone, bDone)
	}
	if code, out, errOut := runCLI("campaign", "run", file, "--workers", "2", "--store", filepath.Join(dir, "l.db"), "--no-progress"); code != 0 {
		t.Fatalf("local run: exit %d\n%s\n%s", code, out, errOut)
	}
	if d, l := exportFlows(t, filepath.Join(dir, "d.db")), exportFlows(t, filepath.Join(dir, "l.db")); d != l || strings.Count(d, "\n") != 9 {
		t.Fatalf("distributed and local stores differ:\n%s\n---\n%s", d, l)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func exportFlows(t *testing.T, path string) string {
	t.Helper()
	st, err := campaign.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var buf bytes.Buffer
	if err := st.ExportCSV(context.Background(), &buf, nil); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
