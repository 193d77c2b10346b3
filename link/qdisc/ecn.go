package qdisc

import (
	"time"

	"github.com/leolab/leolab/link"
	"github.com/leolab/leolab/packet"
)

// signal is how a queue tells a sender of congestion: it marks when ECN is
// on and the packet is ECN-capable (RFC 3168 §5: "the router SHOULD set
// the CE codepoint ... instead of dropping"), and drops otherwise.
type signal struct {
	ecn     bool
	drop    link.DropFunc
	marks   int64 // packets CE-marked
	aqmDrop int64 // packets dropped by the AQM (not overflow)
}

// congest signals congestion with p and reports whether p was dropped (the
// caller must then forget it).
func (s *signal) congest(now time.Duration, p *packet.Packet) (dropped bool) {
	if s.ecn && p.ECT {
		p.CE = true
		s.marks++
		return false
	}
	s.aqmDrop++
	s.drop(now, p, link.DropAQM)
	return true
}

// Stats counts what a queue did to signal congestion.
type Stats struct {
	Marks    int64 // ECN CE marks
	AQMDrops int64 // early/AQM drops (cause link.DropAQM)
}

// Stats returns the counters.
func (s *signal) Stats() Stats { return Stats{Marks: s.marks, AQMDrops: s.aqmDrop} }

// dropAQM drops p as an AQM decision, never marking (PIE above its ECN
// threshold, BLUE).
func (s *signal) dropAQM(now time.Duration, p *packet.Packet) {
	s.aqmDrop++
	s.drop(now, p, link.DropAQM)
}
