package learnedtest

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
)

// NewFunc builds a learned controller acting through the decider r.
type NewFunc func(cfg cc.Config, r *Recorder) (cc.Controller, error)

// checkStretched fails t unless the decisions r saw tile [Start, End)
// the way ACK-closed periods do (cc/monitor): none shorter than
// r.Period, each starting where the previous ended, none without an
// ACK, and one at least gap long, the one an ACK gap of gap stretched.
// Periods on the clock were tried and not applied (cc/monitor's package
// doc); a monitor cutting them so would fail here.
func checkStretched(t testing.TB, what string, r *Recorder, gap time.Duration) {
	t.Helper()
	if r.Calls == 0 {
		t.Fatalf("%s: no decisions", what)
	}
	t.Logf("%s: %d periods in [%v, %v), longest %v", what, r.Calls, r.Start, r.End, r.MaxLen)
	if r.Broken != 0 || r.Empty != 0 {
		t.Errorf("%s: %d periods shorter than %v or off the previous one's end, %d without an ACK",
			what, r.Broken, r.Period, r.Empty)
	}
	if r.MaxLen < gap {
		t.Errorf("%s: longest period %v, want ≥ %v (the ACK gap)", what, r.MaxLen, gap)
	}
}

// Outage runs a controller built by mk (action 0) on a 50 Mbit/s, 60 ms
// cctest.Path with a one-BDP buffer (375 kB) through a 200 ms outage at
// 4 s, for 6 s, and fails t unless its periods (of length period) are
// ACK-closed: no ACK returns for at least the outage, so the period open
// when it began lasts at least 200 ms, until the first ACK after it.
func Outage(t testing.TB, period time.Duration, mk NewFunc) {
	t.Helper()
	r := &Recorder{Period: period}
	c, err := mk(cc.Config{MSS: cctest.DefaultMSS, InitialCWnd: 10}, r)
	if err != nil {
		t.Fatal(err)
	}
	const at, outage = 4 * time.Second, 200 * time.Millisecond
	p := cctest.NewPath(c, 50e6/8, 60*time.Millisecond)
	p.Buffer = 50e6 / 8 * 60 / 1000 // one BDP, 375 kB
	p.Outages = [][2]time.Duration{{at, at + outage}}
	p.Run(6 * time.Second)
	checkStretched(t, "200 ms outage", r, outage)
}
