package export

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leolab/leolab/probe"
)

// TraceDelays: each interval's smallest delay of the packets sent in it; a
// lost packet counts for nothing, an empty interval repeats the one
// before; a trace whose times span far more intervals than it has packets
// is refused.
func TestTraceDelays(t *testing.T) {
	ms := time.Millisecond
	tr := &probe.Trace{Samples: []probe.Sample{
		{Sent: 0, OWD: 30 * ms},
		{Sent: 5 * ms, OWD: 28 * ms},
		{Sent: 12 * ms, OWD: 1 * ms, Lost: true},
		{Sent: 25 * ms, OWD: 40 * ms},
		{Sent: 27 * ms, OWD: 41 * ms},
	}}
	d, err := TraceDelays(tr, 10*ms)
	if err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{28 * ms, 28 * ms, 40 * ms}; !slices.Equal(d, want) {
		t.Errorf("delays %v, want %v", d, want)
	}
	sparse := &probe.Trace{Samples: []probe.Sample{{Sent: 0, OWD: ms}, {Sent: time.Hour, OWD: ms}}}
	if _, err := TraceDelays(sparse, 10*ms); err == nil || !strings.Contains(err.Error(), "at most 1000 per packet") {
		t.Errorf("an hour in 2 packets at 10 ms: %v", err)
	}
	lost := &probe.Trace{Samples: []probe.Sample{{Sent: 0, Lost: true}}}
	if _, err := TraceDelays(lost, 10*ms); err == nil {
		t.Error("every packet lost: no error")
	}
}
