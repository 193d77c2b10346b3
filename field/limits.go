package field

import (
	"fmt"
	"math"
	"time"

	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/packet"
)

// Defaults of a server's caps; each is a flag of `leolab net serve`.
const (
	// DefaultMaxSessions: concurrent probes share the server's NIC and
	// CPU and distort each other's timing; 16 at the default 8 Mbit/s is
	// far below any VM's link, 16 at 1 Gbit/s already fills most.
	DefaultMaxSessions = 16
	// DefaultMaxSessionsPerIP: a dish probes down and up at once; behind
	// carrier-grade NAT a few subscribers share one address.
	DefaultMaxSessionsPerIP = 4
	// DefaultMaxBytesPerIPHour: 16 GB, a 300 Mbit/s probe for 7 minutes
	// (or the default 8 Mbit/s probe for 4 h) per address per hour: a
	// study's share, not a means to fill a link for anyone who asks.
	DefaultMaxBytesPerIPHour = 16_000_000_000
	// DefaultMaxLine: a request is under 400 bytes with its auth tag;
	// ten times that is room for growth, not for a client to fill memory.
	DefaultMaxLine = 4096
	// DefaultMaxTracePackets: an uplink trace is kept in memory and sent
	// back as one line (~24 B held and ~60 B sent per packet): 2 M packets
	// is ~50 MB held, ~33 min of the default probe.
	DefaultMaxTracePackets = 2_000_000
)

// Fixed limits of the protocol.
const (
	// maxRateBps and maxDuration: 1 Gbit/s (the fastest Starlink plan is
	// far below) for at most an hour.
	maxRateBps  = 1e9
	maxDuration = time.Hour
	// minRateBps: one 125-byte packet a second; slower tells the prober
	// nothing, and the packet gap (at most 12 s) stays far from int64
	// nanoseconds.
	minRateBps = 1e3
	// minSize and maxSize: IPv4 + UDP headers (28, RFC 791/768) and the
	// 16-byte stamp, up to the MTU.
	minSize, maxSize = 28 + 16, packet.MTU
	// maxDrain bounds the receiver's wait after the sender is done.
	maxDrain = time.Minute
	// maxPending bounds connections that have not yet sent a request
	// (each holds a goroutine and a descriptor for up to requestTimeout).
	maxPending = 64
	// requestTimeout is how long a new connection may take to send its
	// request.
	requestTimeout = 5 * time.Second
	// maxChallenges bounds the challenges a session answers hellos with
	// (twice what helloFor/helloEvery hellos need).
	maxChallenges = 2 * int(helloFor/helloEvery)
	// replyLine bounds a reply other than records on the client side.
	replyLine = 4096
)

// Limits are a server's caps (DefaultLimits; zero fields take the
// defaults).
type Limits struct {
	Sessions       int   // concurrent probes
	SessionsPerIP  int   // concurrent probes per client IP
	BytesPerIPHour int64 // probe bytes (IP level) per client IP over the last hour
	LineBytes      int   // control line length
	TracePackets   int64 // packets of an uplink trace
}

// DefaultLimits are the Default* caps.
func DefaultLimits() Limits {
	return Limits{Sessions: DefaultMaxSessions, SessionsPerIP: DefaultMaxSessionsPerIP,
		BytesPerIPHour: DefaultMaxBytesPerIPHour, LineBytes: DefaultMaxLine, TracePackets: DefaultMaxTracePackets}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Sessions <= 0 {
		l.Sessions = d.Sessions
	}
	if l.SessionsPerIP <= 0 {
		l.SessionsPerIP = d.SessionsPerIP
	}
	if l.BytesPerIPHour <= 0 {
		l.BytesPerIPHour = d.BytesPerIPHour
	}
	if l.LineBytes <= 0 {
		l.LineBytes = d.LineBytes
	}
	if l.TracePackets <= 0 {
		l.TracePackets = d.TracePackets
	}
	return l
}

func (r *request) validate() error {
	switch {
	case r.Version != version:
		return fmt.Errorf("protocol version %d, this server speaks %d (use the same leolab release on both ends)", r.Version, version)
	case r.Direction != Down && r.Direction != Up:
		return fmt.Errorf("direction %q: want %q or %q", r.Direction, Down, Up)
	case quantity.Rate(r.RateBps, minRateBps, maxRateBps) != nil: // NaN, ±Inf too
		return fmt.Errorf("rate: %v", quantity.Rate(r.RateBps, minRateBps, maxRateBps))
	case r.Size < minSize || r.Size > maxSize:
		return fmt.Errorf("size %d bytes: want [%d, %d]", r.Size, minSize, maxSize)
	case r.DurationNs <= 0 || time.Duration(r.DurationNs) > maxDuration:
		return fmt.Errorf("duration %v: want (0, %v]", time.Duration(r.DurationNs), maxDuration)
	case r.DrainNs < 0 || time.Duration(r.DrainNs) > maxDrain:
		return fmt.Errorf("drain %v: want [0, %v]", time.Duration(r.DrainNs), maxDrain)
	}
	return nil
}

// gap is the packet spacing of a validated request (at most 12 s).
func (r *request) gap() time.Duration {
	return time.Duration(float64(r.Size*8) / r.RateBps * float64(time.Second))
}

// packets is how many packets a validated request's sender sends at most.
func (r *request) packets() int64 {
	return int64(math.Ceil(float64(r.DurationNs)/float64(r.gap()))) + 1
}

// bytes is a validated request's probe volume at the IP level.
func (r *request) bytes() int64 { return r.packets() * int64(r.Size) }
