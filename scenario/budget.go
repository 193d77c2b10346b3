package scenario

import "fmt"

// The event budget: what a run will cost, estimated before it starts, so a
// run that cannot finish in reasonable memory or time is refused with the
// reason instead of running out of memory an hour in. The per-item costs
// were measured on this code (leolab sim --json, peak RSS over the run).
const (
	// flowBytes: 167 MB for 4000 cubic flows over 2 s, 69 MB for 1000.
	flowBytes = 40 << 10
	// flowIntervalBytes: one flow's record of one interval, its cc map and
	// its JSON: 10 bbr1 flows × 20 000 intervals of 1 ms took 973 MB.
	flowIntervalBytes = 5 << 10
	// linkIntervalBytes: a link's record of one interval (a few numbers).
	linkIntervalBytes = 1 << 10
	// packetRecordBytes: a cbr packet recorded with record: true: 2.5 M
	// records of 100-byte packets took 1.1 GB.
	packetRecordBytes = 500
	// runLinks: the forward and the reverse link each record intervals.
	runLinks = 2

	// MaxMemory is the estimate above which a run is refused (without
	// --force): a sixth of the 23 GB machine it was measured on, and what
	// a laptop spares.
	MaxMemory = 4 << 30
	// MaxPackets is the most packets the simulator is asked to move
	// without --force: it moves ~400 000 a second on one core (a 1 Gbit/s
	// cubic flow for 60 s: 5 M data packets in 13 s), so 2·10⁹ is about an
	// hour and a half.
	MaxPackets          = 2e9
	simPacketsPerSecond = 4e5

	// budgetPacketBytes is the packet size a TCP flow's estimate counts in
	// (a full Ethernet MTU); ackFactor adds the ACKs (one per two
	// segments).
	budgetPacketBytes = 1500
	ackFactor         = 1.5
)

// Budget is a run's estimated cost.
type Budget struct {
	Bytes   float64 // peak memory, bytes
	Packets float64 // packets the engine moves (data, ACKs and probes)
}

// Budget estimates the cost of the validated scenario s. Values stay in
// float64 so that absurd inputs (a week at 1 Tbit/s) cannot overflow.
func (s *Scenario) Budget() Budget {
	dur := s.Duration.Seconds()
	intervals := float64(s.Duration/s.Interval) + 1
	var b Budget
	flows := 0
	for _, f := range s.Flows {
		flows += f.Count
		if f.CCA != CBR {
			continue
		}
		stop := s.Duration
		if f.Stop != 0 && f.Stop < stop {
			stop = f.Stop
		}
		// A probe sends at its own rate whatever the link does.
		sent := float64(f.Count) * f.RateBps / 8 / float64(f.PacketSize) * (stop - f.Start).Seconds()
		b.Packets += sent
		if f.Record {
			b.Bytes += sent * packetRecordBytes
		}
	}
	b.Bytes += float64(flows) * (flowBytes + intervals*flowIntervalBytes)
	links := runLinks
	if s.Links != nil {
		links = 2 * len(s.Links) // each link's two directions
	}
	b.Bytes += float64(links) * intervals * linkIntervalBytes
	// TCP flows together move at most what the bottleneck serves.
	b.Packets += s.bottleneckBps() / 8 / budgetPacketBytes * ackFactor * dur
	return b
}

// bottleneckBps is the most the data direction serves: the fixed rate, or
// the highest its schedule sets, or the Starlink direction's full allocation.
func (s *Scenario) bottleneckBps() float64 {
	if s.Links != nil {
		return s.topologyRateBps()
	}
	if r, ok := s.traceRateBps(); ok {
		return r
	}
	if s.starlink == nil {
		return s.Path.maxRate()
	}
	if s.Path.Direction == "uplink" {
		return s.starlink.Uplink.MaxRate()
	}
	return s.starlink.Downlink.MaxRate()
}

// CheckBudget refuses a validated scenario whose estimated memory exceeds
// MaxMemory or, when packets is set (the simulator, whose run time grows
// with them; a live run lasts its duration), whose packets exceed
// MaxPackets. The error says what to change; callers offer --force.
func (s *Scenario) CheckBudget(packets bool) error {
	b := s.Budget()
	fail := func(format string, args ...any) error {
		return &Error{File: s.File, Msg: fmt.Sprintf(format, args...)}
	}
	if b.Bytes > MaxMemory {
		return fail("the run needs about %s of memory (records every %v for %v; limit %s): use a coarser interval, fewer flows, a shorter duration or no per-packet records, or --force to run anyway",
			gigabytes(b.Bytes), s.Interval, s.Duration, gigabytes(MaxMemory))
	}
	if packets && b.Packets > MaxPackets {
		return fail("the run moves about %.3g packets, %.3g hours of simulation at ~400 000 packets/s (limit %.3g packets): use a lower rate or a shorter duration, or --force to run anyway",
			b.Packets, b.Packets/simPacketsPerSecond/3600, float64(MaxPackets))
	}
	return nil
}

func gigabytes(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }
