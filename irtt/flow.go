package irtt

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/leolab/leolab/result"
)

// FlowInterval is the sampling interval of Flow's series (iperf3's), unless
// the sends are sparser: then it widens so that there are no more
// intervals than packets (the series' size follows the data's, not the
// times written in it).
const FlowInterval = time.Second

// Flow returns the capture as one flow of the result schema, for the
// analysis: RTT statistics from every round trip, the one-way delay of the
// direction given, packets sent and lost, the bytes of the replies
// received, and per FlowInterval of send time (see there) the mean RTT (srtt_ms), mean
// one-way delay, bytes and losses.
func (c *Capture) Flow(direction string) (result.Flow, error) {
	if direction != Downlink && direction != Uplink {
		return result.Flow{}, fmt.Errorf("direction %q: want %s or %s", direction, Downlink, Uplink)
	}
	f := result.Flow{CCA: "irtt", SentPackets: int64(len(c.Packets))}
	var rtts, owds []time.Duration
	type bin struct {
		rtt, owd    time.Duration
		nRTT, nOWD  int
		bytes, lost int64
	}
	var last time.Duration
	for _, p := range c.Packets {
		last = max(last, p.ClientSend)
	}
	width := max(FlowInterval, last/time.Duration(len(c.Packets))+1)
	bins := make([]bin, int(last/width)+1) // at most len(c.Packets)+1
	for _, p := range c.Packets {
		b := &bins[max(p.ClientSend, 0)/width]
		if p.Loss != Delivered {
			f.LostPackets++
			b.lost++
			continue
		}
		b.bytes += int64(c.Length)
		if p.HasRTT {
			rtts = append(rtts, p.RTT)
			b.rtt += p.RTT
			b.nRTT++
		}
		owd, ok := p.Down, p.HasDown
		if direction == Uplink {
			owd, ok = p.Up, p.HasUp
		}
		if ok {
			owds = append(owds, owd)
			b.owd += owd
			b.nOWD++
		}
	}
	for i, b := range bins {
		iv := result.Interval{T: float64(i+1) * width.Seconds(), Bytes: b.bytes, Lost: b.lost}
		if b.nRTT > 0 {
			iv.SRTTMs = ms(b.rtt / time.Duration(b.nRTT))
		}
		if b.nOWD > 0 {
			iv.OWDMs = ms(b.owd / time.Duration(b.nOWD))
		}
		f.BytesAcked += b.bytes
		f.Intervals = append(f.Intervals, iv)
	}
	f.EndS = float64(len(bins)) * width.Seconds()
	f.ThroughputMbps = float64(f.BytesAcked) * 8 / f.EndS / 1e6
	if len(rtts) > 0 {
		f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs = stats(rtts)
		f.RTTInflation = f.MeanRTTMs / f.MinRTTMs
	}
	if len(owds) > 0 {
		_, f.MeanOWDMs, f.P95OWDMs = stats(owds)
	}
	if math.IsInf(f.RTTInflation, 0) || math.IsNaN(f.RTTInflation) {
		f.RTTInflation = 0 // an RTT of 0 (loopback at ns resolution)
	}
	return f, nil
}

// stats returns the minimum, mean and 95th percentile (nearest rank) in
// ms; d is reordered.
func stats(d []time.Duration) (minMs, meanMs, p95Ms float64) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	var sum float64
	for _, x := range d {
		sum += ms(x)
	}
	return ms(d[0]), sum / float64(len(d)), ms(d[int(0.95*float64(len(d)-1))])
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
