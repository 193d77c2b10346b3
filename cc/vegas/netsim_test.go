package vegas_test

import (
	"testing"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/vegas"
)

// Issue 5, acceptance 2, through the simulator (our transport, drop-tail
// link): alone on a fixed 50 Mbit/s, 60 ms path with a one-BDP buffer
// (250 packets of 1500 B) for 60 s, vegas uses at least 80% of the link
// and its mean queueing delay stays under 20% of the base RTT.
func TestNetsimFixedLink(t *testing.T) {
	cctest.FixedLinkLowDelay(t, "vegas")
}
