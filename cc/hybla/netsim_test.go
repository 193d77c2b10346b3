package hybla_test

import (
	"testing"

	"github.com/leolab/leolab/cc/cctest"
	_ "github.com/leolab/leolab/cc/hybla"
)

// Issue 5, acceptance 2, through the simulator (our transport, drop-tail
// link): alone on a fixed 50 Mbit/s, 60 ms path with a one-BDP buffer
// (250 packets of 1500 B) for 60 s, hybla uses at least 80% of the link.
func TestNetsimFixedLink(t *testing.T) {
	cctest.FixedLink(t, "hybla")
}
