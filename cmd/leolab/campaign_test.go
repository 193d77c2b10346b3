package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leolab/leolab/campaign"
)

// cliChildEnv makes this test binary act as the leolab CLI (see TestMain),
// so that tests can run and kill real leolab processes.
const cliChildEnv = "LEOLAB_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliChildEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// cliProcess prepares a leolab process (this test binary in CLI mode).
func cliProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), cliChildEnv+"=1")
	return cmd
}

// needCampaignCmds skips until root.go registers the campaign commands.
func needCampaignCmds(t *testing.T) {
	t.Helper()
	for _, name := range []string{"campaign", "reproduce", "worker"} {
		if c, _, err := newRoot().Find([]string{name}); err != nil || c.Name() != name {
			t.Skipf("command %q is not registered in root.go (newCampaignCmd, newReproduceCmd, newWorkerCmd)", name)
		}
	}
}

const smallCampaign = `version: 1
name: small
duration: 3s
runs: 2
template: {path: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {limit_packets: 40}}}
axes:
  cca: [cubic, reno]
  kind: [dedicated, concurrent]
`

// Bad campaign files → exit 2 and one line naming the file, line and field.
func TestCampaignBadInput(t *testing.T) {
	needCampaignCmds(t)
	starlink := "version: 1\nduration: 5s\naxes:\n  cca: [cubic, bbr]\n  city: [sydney, london]\n"
	cases := []struct{ name, body, want string }{
		{"unknown axis value", strings.Replace(starlink, "london", "paris", 1), `:5: axes.city[1]: unknown city "paris" (allowed: `},
		{"unknown cca", strings.Replace(starlink, "bbr]", "bbr9]", 1), `:4: axes.cca[1]: unknown congestion control "bbr9"`},
		{"empty axis", strings.Replace(starlink, "[sydney, london]", "[]", 1), ":5: axes.city: empty"},
		{"duplicate run ids", strings.Replace(starlink, "[cubic, bbr]", "[cubic, bbr, cubic]", 1), ":4: axes.cca[2]: duplicate run id"},
		{"unknown axis", starlink + "  speed: [fast]\n", ":6: axes.speed: unknown field (allowed: cca, city, direction, kind)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeFile(t, "c.yaml", c.body)
			for _, sub := range []string{"run", "status", "report"} {
				code, out, errOut := runCLI("campaign", sub, file)
				lines := strings.Split(strings.TrimSpace(errOut), "\n")
				if code != 2 || len(lines) != 1 || !strings.Contains(lines[0], file+c.want) {
					t.Fatalf("campaign %s: exit %d, stderr %q (stdout %q); want 2 and %q", sub, code, errOut, out, file+c.want)
				}
			}
		})
	}
	for _, args := range [][]string{
		{"campaign", "run", "/nonexistent/c.yaml"},
		{"campaign", "run"},
		{"campaign", "run", writeFile(t, "c.yaml", smallCampaign), "--workers", "2", "--nats", "nats://127.0.0.1:1"},
		{"reproduce", "--quick", "--full"},
		{"reproduce", "--cities", "paris"},
		{"worker"},
	} {
		if code, _, errOut := runCLI(args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d stderr %q, want 2", args, code, errOut)
		}
	}
}

// TestCampaignStoreRefusals: issue 18 — status/report with a mistyped
// --store created an empty store and reported success; a store truncated
// to 0 bytes was silently reused. Both exit 2 with the reason, and the
// mistyped store is not created.
func TestCampaignStoreRefusals(t *testing.T) {
	needCampaignCmds(t)
	file := writeFile(t, "small.yaml", smallCampaign)
	typo := filepath.Join(t.TempDir(), "smal.db")
	for _, sub := range []string{"status", "report"} {
		code, _, errOut := runCLI("campaign", sub, file, "--store", typo)
		if code != 2 || !strings.Contains(errOut, "no such store") || !strings.Contains(errOut, "--store") {
			t.Errorf("%s with a missing store: exit %d, %q; want 2 naming it", sub, code, errOut)
		}
		if _, err := os.Stat(typo); err == nil {
			t.Fatalf("%s created the mistyped store", sub)
		}
	}
	empty := writeFile(t, "empty.db", "")
	for _, sub := range []string{"run", "status", "report"} {
		args := []string{"campaign", sub, file, "--store", empty}
		if sub == "run" {
			args = append(args, "--no-progress")
		}
		code, _, errOut := runCLI(args...)
		if code != 2 || !strings.Contains(errOut, "empty (0 bytes)") {
			t.Errorf("%s with a 0-byte store: exit %d, %q; want 2 saying it is empty", sub, code, errOut)
		}
	}
}

func TestCampaignRunStatusReport(t *testing.T) {
	needCampaignCmds(t)
	file := writeFile(t, "small.yaml", smallCampaign)
	code, out, errOut := runCLI("campaign", "run", file, "--workers", "2")
	if code != 0 || !strings.Contains(out, "campaign small: 6 runs: 0 stored before, 6 ran, 0 failed") {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "runs 6/6 100%, 0 failed") {
		t.Fatalf("no progress on stderr: %q", errOut)
	}
	if _, err := os.Stat(strings.TrimSuffix(file, ".yaml") + ".db"); err != nil {
		t.Fatalf("default store: %v", err)
	}
	code, out, _ = runCLI("campaign", "status", file)
	if code != 0 || !strings.Contains(out, "6 runs, 6 stored, 0 pending") || !strings.Contains(out, "concurrent") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	// Run again, the stored runs are reused; made by another build, the
	// summary says so.
	if code, out, _ = runCLI("campaign", "run", file); code != 0 || !strings.Contains(out, "6 stored before, 0 ran") || strings.Contains(out, "warning") {
		t.Fatalf("rerun: exit %d\n%s", code, out)
	}
	db, err := sql.Open("sqlite", strings.TrimSuffix(file, ".yaml")+".db")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE runs SET version = 'leolab-old'"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if code, out, _ = runCLI("campaign", "run", file); code != 0 || !strings.Contains(out, "warning: 6 of the stored runs were made by another leolab version") {
		t.Fatalf("rerun after another build: exit %d\n%s\nwant the stale-runs warning", code, out)
	}
	dir := filepath.Join(t.TempDir(), "rep")
	code, out, errOut = runCLI("campaign", "report", file, "--out", dir)
	if code != 0 || !strings.Contains(out, "wrote") {
		t.Fatalf("report: exit %d\n%s\n%s", code, out, errOut)
	}
	flows, err := os.ReadFile(filepath.Join(dir, "flows.csv"))
	if err != nil || strings.Count(string(flows), "\n") != 1+2*(2+2) {
		t.Fatalf("flows.csv (%v):\n%s", err, flows)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !strings.Contains(string(html), "simulated-concurrent") || !strings.Contains(string(html), "simulated-dedicated") {
		t.Fatalf("report.html lacks the figures of both kinds (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err != nil {
		t.Error(err)
	}
}

// killCampaign is a Starlink campaign of 12 runs of ~0.2–0.5 s each.
const killCampaign = `version: 1
name: kill
duration: 20s
runs: 4
axes:
  cca: [bbr, bbr1, cubic]
  city: [sydney]
  direction: [downlink]
`

// Acceptance 3: SIGKILL the campaign process mid-way, rerun: only the
// missing runs run, and the store holds every run once.
func TestCampaignKillResume(t *testing.T) {
	needCampaignCmds(t)
	file := writeFile(t, "kill.yaml", killCampaign)
	store := filepath.Join(t.TempDir(), "kill.db")
	child := cliProcess(t, "campaign", "run", file, "--store", store, "--workers", "1", "--no-progress")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	st, err := campaign.OpenStore(store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	for {
		n, _, _, err := st.Count(ctx)
		if err == nil && n >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the campaign stored fewer than 3 runs in 60 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	before, _, _, err := st.Count(ctx)
	if err != nil || before >= 12 {
		t.Fatalf("after the kill the store holds %d runs (%v): want a partial campaign", before, err)
	}
	t.Logf("killed with %d of 12 runs stored", before)
	code, out, errOut := runCLI("campaign", "run", file, "--store", store, "--no-progress")
	want := "12 runs: " + strconv.Itoa(before) + " stored before, " + strconv.Itoa(12-before) + " ran, 0 failed"
	if code != 0 || !strings.Contains(out, want) {
		t.Fatalf("rerun: exit %d, want %q\n%s\n%s", code, want, out, errOut)
	}
	runs, flows, _, err := st.Count(ctx)
	if err != nil || runs != 12 || flows != 12 {
		t.Fatalf("store: %d runs, %d flows (%v); want each of the 12 runs once", runs, flows, err)
	}
}
