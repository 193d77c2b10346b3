package campaign_test

import (
	"context"
	"testing"

	"github.com/leolab/leolab/campaign"
	_ "github.com/leolab/leolab/cc/all"
	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/livetest"
)

// A campaign with engine emu runs its scenario live: kernel CUBIC through a
// fixed 20 Mbit/s link for 3 s fills most of the link.
func TestEmuEngineRun(t *testing.T) {
	if err := netns.Available(); err != nil {
		t.Skipf("emulator not available here: %v", err)
	}
	livetest.Lock(t) // live tests run one at a time across packages
	c, err := campaign.Parse("emu.yaml", []byte(`version: 1
name: emu-engine
engine: emu
duration: 3s
template: {path: {profile: fixed, rate: 20Mbps, rtt: 20ms, queue: {limit_packets: 60}}}
axes:
  cca: [cubic]
  kind: [dedicated]
`))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Expand()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Engine != campaign.EngineEmu {
		t.Fatalf("expanded %d runs, engine %q", len(runs), runs[0].Engine)
	}
	eng, err := campaign.EngineFor(runs[0].Engine)
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), runs[0])
	if err != nil {
		t.Fatal(err)
	}
	f := res.Flows[0]
	t.Logf("engine %s: %s %.1f Mbit/s, %d retransmits", res.Engine, f.CCA, f.ThroughputMbps, f.Retransmits)
	// 3 s including slow start on a 20 Mbit/s link: well above half of it,
	// never above the payload rate.
	if res.Engine != "emu" || f.ThroughputMbps < 10 || f.ThroughputMbps > 20*1448/1500.0 {
		t.Fatalf("engine %q throughput %.2f Mbit/s", res.Engine, f.ThroughputMbps)
	}
}
