package export

import (
	"fmt"
	"time"

	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/result"
)

// maxIntervalsPerSample bounds a probe trace's delay trace by the data's
// size, not by the times written in it: a capture of n packets becomes at
// most this many intervals per packet (irtt's sparsest common interval, 1 s,
// at LeoReplayer's 10 ms is 100; the rest is slack for gaps).
const maxIntervalsPerSample = 1000

// TraceDelays is a probe trace's delay trace (an irtt capture's direction,
// or any trace the prober reads): each interval's smallest one-way delay of
// the packets sent in it, as Delays, covering the trace up to its last send.
func TraceDelays(tr *probe.Trace, interval time.Duration) ([]time.Duration, error) {
	if interval <= 0 {
		return nil, fmt.Errorf("interval %v: need > 0", interval)
	}
	var last time.Duration
	pkts := make([]result.ProbePacket, 0, len(tr.Samples))
	for _, s := range tr.Samples {
		if s.Lost || s.Sent < 0 {
			continue
		}
		last = max(last, s.Sent)
		pkts = append(pkts, result.ProbePacket{SentS: s.Sent.Seconds(), OWDMs: float64(s.OWD) / float64(time.Millisecond)})
	}
	n := last/interval + 1
	if limit := time.Duration(maxIntervalsPerSample * max(len(pkts), 1)); n > limit {
		return nil, fmt.Errorf("%d packets span %d intervals of %v: at most %d per packet (use a larger --interval)", len(pkts), n, interval, maxIntervalsPerSample)
	}
	return Delays(pkts, interval, n*interval)
}
