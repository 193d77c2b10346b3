package learnedtest

import (
	"testing"
	"time"

	"github.com/leolab/leolab/cc"
	"github.com/leolab/leolab/cc/cctest"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/scenario"
)

// NewFunc builds a learned controller acting through the decider r.
type NewFunc func(cfg cc.Config, r *Recorder) (cc.Controller, error)

// checkTiled fails t unless the decisions r saw tile [Start, End) with
// periods of r.Period, one decision each: (End − Start)/Period of them,
// none broken, and at least minEmpty without an ACK.
func checkTiled(t testing.TB, what string, r *Recorder, minEmpty int) {
	t.Helper()
	if r.Calls == 0 {
		t.Fatalf("%s: no decisions", what)
	}
	want := int((r.End - r.Start) / r.Period)
	t.Logf("%s: %d periods in [%v, %v), %d empty, longest %v", what, r.Calls, r.Start, r.End, r.Empty, r.MaxLen)
	if r.Calls != want || r.Broken != 0 || r.MaxLen != r.Period {
		t.Errorf("%s: %d decisions over [%v, %v), want %d periods of %v; %d broken, longest %v",
			what, r.Calls, r.Start, r.End, want, r.Period, r.Broken, r.MaxLen)
	}
	if r.Empty < minEmpty {
		t.Errorf("%s: %d empty periods, want ≥ %d", what, r.Empty, minEmpty)
	}
}

// Outage runs a controller built by mk (action 0) on a 50 Mbit/s, 60 ms
// cctest.Path with a one-BDP buffer (375 kB) through a 200 ms outage at 4 s,
// for 6 s, and fails t unless its periods (of length period) kept time:
// no ACK returns for at least the outage, so at least 200 ms / period −
// 1 of them are empty, and every period is period long. A monitor that
// closed periods on ACKs only would stretch one over the gap.
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
	checkTiled(t, "200 ms outage", r, int(outage/period)-1)
}

// RTTStep runs cca (built by mk, action 0) through the simulator alone
// on a 20 Mbit/s drop-tail link whose base RTT steps 50 → 200 ms at 3 s
// (seed 002's Fig. 4 step, scaled down), for 6 s, and fails t unless
// its periods kept time: the packets sent after the step take 150 ms
// longer, so the ACK stream stops for ~150 ms and at least 150 ms /
// period − 1 periods are empty.
func RTTStep(t testing.TB, cca string, period time.Duration, mk NewFunc) {
	t.Helper()
	sc, err := scenario.Parse("rtt-step.yaml", []byte(`version: 1
name: learned-rtt-step
duration: 6s
seed: 1
path:
  profile: fixed
  rate: 20Mbps
  rtt: 50ms
  queue: {discipline: droptail, limit_packets: 84}
  schedule:
    - {at: 3s, rtt: 200ms}
flows:
  - {cca: `+cca+`, start: 0s}
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := sc.Spec()
	if err != nil {
		t.Fatal(err)
	}
	r := &Recorder{Period: period}
	spec.Flows[0].Controller = func(cfg cc.Config) (cc.Controller, error) { return mk(cfg, r) }
	if _, err := netsim.Run(spec); err != nil {
		t.Fatal(err)
	}
	checkTiled(t, "50 → 200 ms RTT step", r, int(150*time.Millisecond/period)-1)
}
