package emu

import (
	"time"

	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/result"
)

// Stats is the pump's report on the links and on its own instrument.
type Stats struct {
	// Links are the uplink then the downlink, in the result schema; for a
	// topology's series, one link per hop direction in the simulator's
	// order (its data directions in file order, then its ACK directions).
	Links []result.Link
	// Release error percentiles: how late packets were written relative to
	// their stage's due time.
	ReleaseP50, ReleaseP90, ReleaseP99, ReleaseP999, ReleaseMax time.Duration
	// Packets forwarded into the stages; BadPackets not IPv4 (dropped);
	// WriteErrors failed writes to a TUN; ReadErrors failed reads; Stalls
	// times a stage announced an event and released nothing.
	Packets, BadPackets, WriteErrors, ReadErrors, Stalls int64
	// Marked packets got the CE codepoint from an AQM.
	Marked int64
	// TUNDrops are the kernel's drops at the client and server TUN queues
	// towards the pump (the pump fell behind).
	TUNDrops [2]int64
	// Buffers is the slab's size at the end (its high-water mark).
	Buffers int
	// Realtime tells whether the pump thread got SCHED_FIFO (timing is
	// much worse without it on a busy host).
	Realtime bool
	// Rests are the short sleeps the pump forced on itself to stay below
	// the kernel's real-time throttling share (see restShare).
	Rests int64
	// PumpCPU is the CPU the pump ran pinned to (-1: not pinned), and
	// IdlePolls whether its CPU polled when idle (Config.Shared; host.go).
	PumpCPU   int
	IdlePolls bool
	// HostSteal is the hypervisor's steal time during the run, summed
	// over CPUs, in 10 ms ticks (steal.go; -1: unknown). Multi-ms
	// delay-error outliers on a VM come with it.
	HostSteal time.Duration
	// Gaps are the times the pump was kept from its loop for more than
	// gapMin beyond the sleep it asked for (gaps.go): their number, their
	// sum and the longest. A run's multi-ms delay errors come from them.
	Gaps             int64
	GapTotal, GapMax time.Duration
}

func (pu *pump) stats() *Stats {
	st := &Stats{
		ReleaseP50:  pu.relErr.Quantile(0.5),
		ReleaseP90:  pu.relErr.Quantile(0.9),
		ReleaseP99:  pu.relErr.Quantile(0.99),
		ReleaseP999: pu.relErr.Quantile(0.999),
		ReleaseMax:  pu.relErr.Max(),
		Packets:     pu.packets,
		BadPackets:  pu.badPackets,
		Stalls:      pu.stalls,
		Buffers:     len(pu.slab.bufs),
		Realtime:    pu.realtime,
		Rests:       pu.restB.forced,
		Gaps:        pu.gaps.n,
		GapTotal:    pu.gaps.total,
		GapMax:      pu.gaps.max,
	}
	for i := range pu.ways {
		w := &pu.ways[i]
		st.WriteErrors += w.writeErrors
		st.ReadErrors += w.readErrors
		st.Marked += w.marked
		st.Links = append(st.Links, result.Link{
			Name:      w.name,
			Delivered: w.delivered,
			Drops:     netsim.DropCounts(&w.drops),
			Intervals: w.samples,
		})
	}
	if hl := hopLinks(pu.ways[:]); hl != nil { // a topology: one link per hop direction, as in sim
		st.Links = hl
	}
	return st
}

// Instrument returns the figures for result.Result.Instrument (stable keys).
func (s *Stats) Instrument() map[string]float64 {
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	return map[string]float64{
		"pump_packets":           float64(s.Packets),
		"pump_bad_packets":       float64(s.BadPackets),
		"pump_rests":             float64(s.Rests),
		"pump_write_errors":      float64(s.WriteErrors),
		"pump_read_errors":       float64(s.ReadErrors),
		"pump_stalls":            float64(s.Stalls),
		"pump_ce_marked":         float64(s.Marked),
		"tun_drops_client":       float64(s.TUNDrops[0]),
		"tun_drops_server":       float64(s.TUNDrops[1]),
		"release_err_p50_us":     us(s.ReleaseP50),
		"release_err_p90_us":     us(s.ReleaseP90),
		"release_err_p99_us":     us(s.ReleaseP99),
		"release_err_p999_us":    us(s.ReleaseP999),
		"release_err_max_us":     us(s.ReleaseMax),
		"pump_buffers_high_mark": float64(s.Buffers),
		"pump_realtime":          b2f(s.Realtime),
		"pump_cpu":               float64(s.PumpCPU),
		"idle_polls":             b2f(s.IdlePolls),
		"host_steal_ms":          float64(s.HostSteal) / float64(time.Millisecond),
		"pump_gaps":              float64(s.Gaps),
		"pump_gap_total_ms":      float64(s.GapTotal) / float64(time.Millisecond),
		"pump_gap_max_us":        us(s.GapMax),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
