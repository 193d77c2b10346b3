package endpoint

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/leolab/leolab/result"
	"golang.org/x/sys/unix"
)

// sampler reads the sender's TCP_INFO (tcp(7), include/uapi/linux/tcp.h
// struct tcp_info) every rttSampleEvery and closes an interval every
// f.Interval. For the kernel's bbr it also reads TCP_CC_INFO (struct
// tcp_bbr_info) at each interval's end, so a live run reports BBR's model
// under the keys leolab's bbr1 uses.
type sampler struct {
	conn  *net.TCPConn
	epoch time.Time
	f     TCP

	last      unix.TCPInfo // at the previous interval boundary
	info      unix.TCPInfo // latest
	intervals []result.Interval
}

// bbrUnit is BBR_UNIT, the fixed-point 1.0 of tcp_bbr_info's gains
// (net/ipv4/tcp_bbr.c: BBR_SCALE 8).
const bbrUnit = 1 << 8

// bbrInfo adds the kernel BBR's bandwidth estimate and gains to cc
// (tcp_bbr.c bbr_get_info: bw in bytes/s, split into two 32-bit halves).
func (s *sampler) bbrInfo(cc map[string]float64) {
	rc, err := s.conn.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		bi, err := unix.GetsockoptTCPCCBBRInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_CC_INFO)
		if err != nil || bi.Pacing_gain == 0 {
			return // not bbr, or a kernel without its get_info
		}
		bw := uint64(bi.Bw_hi)<<32 | uint64(bi.Bw_lo)
		cc["btlbw_bps"] = float64(bw) * 8
		cc["pacing_gain"] = float64(bi.Pacing_gain) / bbrUnit
		cc["cwnd_gain"] = float64(bi.Cwnd_gain) / bbrUnit
	})
}

func newSampler(c *net.TCPConn, epoch time.Time, f TCP) *sampler {
	return &sampler{conn: c, epoch: epoch, f: f}
}

func (s *sampler) read() error {
	rc, err := s.conn.SyscallConn()
	if err != nil {
		return err
	}
	var ierr error
	err = rc.Control(func(fd uintptr) {
		var ti *unix.TCPInfo
		ti, ierr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		if ierr == nil {
			s.info = *ti
		}
	})
	if err != nil {
		return err
	}
	if ierr != nil {
		return fmt.Errorf("TCP_INFO: %w", ierr)
	}
	return nil
}

// run samples until the writer finishes, then takes the final sample.
func (s *sampler) run(ctx context.Context, wrDone <-chan error, rtt *Hist) error {
	tick := time.NewTicker(rttSampleEvery)
	defer tick.Stop()
	next := s.f.Start + s.f.Interval
	for {
		select {
		case err := <-wrDone:
			if rerr := s.read(); rerr == nil {
				s.close(time.Since(s.epoch))
			}
			return err
		case <-tick.C:
			if err := s.read(); err != nil {
				return err
			}
			if s.info.Rtt > 0 {
				rtt.Add(time.Duration(s.info.Rtt) * time.Microsecond)
			}
			if now := time.Since(s.epoch); now >= next {
				s.close(next)
				next += s.f.Interval
			}
		}
	}
}

// close appends the interval ending at t from the counters' deltas.
func (s *sampler) close(t time.Duration) {
	in := &s.info
	us := func(v uint32) float64 { return float64(v) / 1e3 }
	iv := result.Interval{
		T:             t.Seconds(),
		Bytes:         int64(in.Bytes_acked - s.last.Bytes_acked),
		Retransmits:   int64(in.Total_retrans - s.last.Total_retrans),
		CWndBytes:     int(in.Snd_cwnd * in.Snd_mss),
		RWndBytes:     int64(in.Snd_wnd), // tcpi_snd_wnd (Linux 5.4+; 0 before)
		SRTTMs:        us(in.Rtt),
		RTTVarMs:      us(in.Rttvar),
		PacingRateBps: float64(in.Pacing_rate) * 8,
		CC: map[string]float64{
			"delivery_rate_bps": float64(in.Delivery_rate) * 8,
			"min_rtt_ms":        us(in.Min_rtt),
			"inflight_bytes":    float64(in.Unacked * in.Snd_mss),
			"ssthresh_bytes":    float64(min(in.Snd_ssthresh, 1<<30/max(in.Snd_mss, 1)) * in.Snd_mss),
			"ca_state":          float64(in.Ca_state),
		},
	}
	if s.f.CCA == "bbr" {
		s.bbrInfo(iv.CC)
	}
	s.intervals = append(s.intervals, iv)
	s.last = *in
}

// flow summarises the run in the result schema (seed 000's metrics).
func (s *sampler) flow(rtt *Hist) result.Flow {
	in := &s.info
	f := result.Flow{
		ID:          s.f.ID,
		CCA:         s.f.CCA,
		StartS:      s.f.Start.Seconds(),
		EndS:        (s.f.Start + s.f.Duration).Seconds(),
		BytesAcked:  int64(in.Bytes_acked),
		Retransmits: int64(in.Total_retrans),
		RTOs:        int64(in.Total_rto),
		MinRTTMs:    float64(in.Min_rtt) / 1e3,
		MeanRTTMs:   ms(rtt.Mean()),
		P95RTTMs:    ms(rtt.Quantile(0.95)),
		Intervals:   s.intervals,
	}
	f.ThroughputMbps = float64(f.BytesAcked) * 8 / s.f.Duration.Seconds() / 1e6
	if f.BytesAcked > 0 {
		f.RetransPerGB = float64(f.Retransmits) / (float64(f.BytesAcked) / 1e9)
	}
	if f.MinRTTMs > 0 {
		f.RTTInflation = f.MeanRTTMs / f.MinRTTMs
	}
	return f
}
