package livetest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder is a T that keeps what Repeat said.
type recorder struct {
	logs, errs, skips []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *recorder) Skipf(f string, a ...any)  { r.skips = append(r.skips, fmt.Sprintf(f, a...)) }

// Packets the host dropped make a failed run the host's: it is repeated,
// and a run that loses none is judged.
func TestRepeatLost(t *testing.T) {
	r := &recorder{}
	runs := 0
	Repeat(r, func(a *Attempt) {
		runs++
		if runs == 1 {
			a.Lost("uplink: packets the TUN queues dropped", 424)
		}
		a.Errorf("buffer %d", runs)
	})
	if runs != 2 || len(r.errs) != 1 || len(r.logs) == 0 || !strings.Contains(r.logs[0], "dropped 424 packets") {
		t.Errorf("%d runs, errors %q, logs %q; want 2 runs, the second's error, the first's loss logged", runs, r.errs, r.logs)
	}
}

// Each outcome of a run sequence: how many runs Repeat makes and whether
// the test passes, fails or skips.
func TestRepeat(t *testing.T) {
	const tol = time.Millisecond
	type outcome struct{ fail, stall bool }
	for _, c := range []struct {
		name        string
		runs        []outcome
		wantRuns    int
		errs, skips int
	}{
		{"pass", []outcome{{}}, 1, 0, 0},
		{"pass despite a stall", []outcome{{stall: true}}, 1, 0, 0},
		{"fail, quiet host", []outcome{{fail: true}}, 1, 1, 0},
		{"stalled fail then pass", []outcome{{true, true}, {}}, 2, 0, 0},
		{"stalled fail then quiet fail", []outcome{{true, true}, {fail: true}}, 2, 1, 0},
		{"stalled every run", []outcome{{true, true}, {true, true}, {true, true}}, 3, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			runs := 0
			Repeat(r, func(a *Attempt) {
				o := c.runs[runs]
				runs++
				if a.N != runs {
					t.Errorf("attempt numbered %d, run %d", a.N, runs)
				}
				d := tol / 2
				if o.stall {
					d = 3 * tol
				}
				a.Stall("pump gap", d, tol)
				a.Lost("tun drops", 0) // none lost: no effect
				if o.fail {
					a.Errorf("median %d", runs)
				}
			})
			if runs != c.wantRuns || len(r.errs) != c.errs || len(r.skips) != c.skips {
				t.Errorf("%d runs, errors %q, skips %q; want %d, %d, %d", runs, r.errs, r.skips, c.wantRuns, c.errs, c.skips)
			}
			if c.skips > 0 && !strings.Contains(r.skips[0], "pump gap 3ms > 1ms") {
				t.Errorf("skip %q does not name the stall", r.skips[0])
			}
		})
	}
}
