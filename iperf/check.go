package iperf

import (
	"fmt"
	"math"
	"time"
)

// Plausibility bounds. A value beyond one is kept as read and reported as a
// Warning: the reader never silently repairs data.
const (
	// maxSeconds guards float→Duration conversions against overflow
	// (time.Duration spans ±292 years; 1e9 s is ~31 years).
	maxSeconds = 1e9
	// maxPlausibleCwnd: Linux socket buffers are ints (include/net/sock.h,
	// sk_sndbuf), so no TCP socket can hold more than 2^31-1 bytes in
	// flight; a larger snd_cwnd (the dataset has ~6e12) is a tcp_info
	// artefact.
	maxPlausibleCwnd = math.MaxInt32
	// maxPlausibleRTT: a GEO path is ~600 ms and the worst bufferbloat
	// reports are a few seconds (Gettys & Nichols, ACM Queue 2011); the
	// dataset's 11.9 s max RTT on a ~30 ms Starlink path is beyond both.
	maxPlausibleRTT = 4 * time.Second
	// maxPlausibleRate: 400 Gbit/s, the fastest Ethernet port in service
	// (IEEE 802.3bs); a faster interval is a timing artefact.
	maxPlausibleRate = 400e9
	// overrunTolerance: iperf3 stops sending at the requested duration and
	// the end summary follows within a few RTTs; a run much longer than
	// asked (the dataset has 318 s for -t 300) ended abnormally.
	overrunTolerance = 2 * time.Second
	// byteMismatch: relative difference between the sum of interval bytes
	// and the end summary above which the two are reported as
	// inconsistent (a final short interval is not listed by iperf3 3.16,
	// but it carries well under 1% of a 300 s run).
	byteMismatch = 0.01
)

// check records warnings for inconsistent or implausible content.
func (r *Run) check() {
	if len(r.Intervals) == 0 {
		r.warnf("intervals", "no intervals")
	}
	if n := r.NumStreams(); r.Params.NumStreams != 0 && n != r.Params.NumStreams {
		r.warnf("start.test_start.num_streams", "%d streams asked, %d in the log", r.Params.NumStreams, n)
	}
	if r.Error != "" {
		r.warnf("error", "%q after %d zero-byte tail intervals", r.Error, r.zeroTail())
	}
	if d := r.Duration(); r.Params.Duration > 0 && d > r.Params.Duration+overrunTolerance {
		r.warnf("intervals", "run lasted %.3f s, %.0f s asked", d.Seconds(), r.Params.Duration.Seconds())
	}
	for i, iv := range r.Intervals {
		for j, s := range iv.Streams {
			p := fmt.Sprintf("intervals[%d].streams[%d]", i, j)
			r.checkTCP(p+".snd_cwnd", p+".rtt", s.SndCwnd, s.RTT)
			if s.BitsPerSecond > maxPlausibleRate {
				r.warnf(p+".bits_per_second", "%.3g bit/s is beyond any link", s.BitsPerSecond)
			}
		}
	}
	for i, s := range r.End.Streams {
		p := fmt.Sprintf("end.streams[%d].sender", i)
		r.checkTCP(p+".max_snd_cwnd", p+".max_rtt", s.MaxSndCwnd, s.MaxRTT)
		if s.TCPInfo && (s.MinRTT > s.MeanRTT || s.MeanRTT > s.MaxRTT) {
			r.warnf(p, "rtt min %v, mean %v, max %v are not ordered", s.MinRTT, s.MeanRTT, s.MaxRTT)
		}
		r.checkBytes(i, s)
	}
}

func (r *Run) checkTCP(cwndPath, rttPath string, cwnd int64, rtt time.Duration) {
	if cwnd > maxPlausibleCwnd {
		r.warnf(cwndPath, "%d bytes exceeds the largest socket buffer (%d)", cwnd, int64(maxPlausibleCwnd))
	}
	if rtt > maxPlausibleRTT {
		r.warnf(rttPath, "%v is implausible (bound %v)", rtt, maxPlausibleRTT)
	}
}

// checkBytes compares a stream's interval bytes with its end summary.
func (r *Run) checkBytes(i int, s StreamEnd) {
	var sum int64
	for _, iv := range r.Intervals {
		if i < len(iv.Streams) {
			sum += iv.Streams[i].Bytes
		}
	}
	end := s.Sender.Bytes
	if end == 0 {
		end = s.Receiver.Bytes
	}
	if end == 0 || len(r.Intervals) == 0 {
		return
	}
	if d := math.Abs(float64(sum-end)) / float64(end); d > byteMismatch {
		r.warnf(fmt.Sprintf("end.streams[%d]", i), "end summary has %d bytes, intervals sum to %d", end, sum)
	}
}

// zeroTail counts the trailing intervals in which no stream moved a byte.
func (r *Run) zeroTail() int {
	n := 0
	for i := len(r.Intervals) - 1; i >= 0; i-- {
		for _, s := range r.Intervals[i].Streams {
			if s.Bytes != 0 {
				return n
			}
		}
		n++
	}
	return n
}
