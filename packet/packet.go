// Package packet holds the unit that moves through leolab's links: data
// segments, ACKs and probe datagrams, with the TCP fields the transport needs
// (sequence space, cumulative ACK, SACK blocks, ECN) and the timestamps the
// link model and the analysis need. It also owns the free list that keeps the
// simulator's per-packet path allocation-free.
package packet

import "time"

// FlowID names one flow within a run (0, 1, 2, ... in scenario order).
type FlowID uint32

// Kind tells what a packet carries.
type Kind uint8

const (
	// Data is a TCP-like data segment from a sender to a receiver.
	Data Kind = iota
	// Ack is a pure acknowledgement from a receiver to a sender.
	Ack
	// Probe is a datagram of a constant-bit-rate or probing flow (no transport).
	Probe
)

func (k Kind) String() string {
	switch k {
	case Data:
		return "data"
	case Ack:
		return "ack"
	case Probe:
		return "probe"
	}
	return "unknown"
}

// Header sizes on the wire. A 1500-byte MTU with IPv4 (20) + TCP (20) + the
// timestamp option (12) leaves the Linux MSS of 1448 bytes.
const (
	MTU        = 1500
	HeaderSize = 52   // IPv4 20 + TCP 20 + TCP timestamps option 12 (RFC 7323)
	MSS        = 1448 // MTU - HeaderSize, Linux's default MSS with timestamps
	AckSize    = HeaderSize
	// SackBlockSize is the on-wire cost of one SACK block (RFC 2018 §3: 8
	// bytes per block plus 2 bytes of kind/length once).
	SackBlockSize = 8
)

// MaxSack is the number of SACK blocks an ACK carries. With the timestamp
// option present there is room for 3 blocks in TCP's 40 option bytes
// (RFC 2018 §3).
const MaxSack = 3

// Block is a SACK block: the half-open byte range [Start, End).
type Block struct {
	Start, End uint64
}

// Len returns the number of bytes in the block.
func (b Block) Len() uint64 { return b.End - b.Start }

// Packet is one packet on a link. Fields are grouped by who writes them.
// A Packet is owned by exactly one party at a time (sender, a link stage,
// receiver) and returned to its Pool by whoever consumes or drops it.
type Packet struct {
	Flow FlowID
	Kind Kind
	// HopsLeft and Route place the packet on its path in an engine that
	// routes (netsim): Route indexes the run's route table, fixed when the
	// packet enters the network, and HopsLeft counts the hops after the one
	// it is on (0: the route ends there, no table lookup). They fit in the
	// padding after Kind.
	HopsLeft uint8
	Route    uint16
	// Host names the sending host, for queues that share a link fairly
	// among hosts (CAKE's host isolation); 0 when unknown.
	Host uint32
	// Size is the number of bytes on the wire (headers included); links
	// serialise and count by it.
	Size int

	// Data segments.
	Seq     uint64 // first payload byte
	Len     int    // payload bytes
	TxID    uint64 // sender's transmission counter: unique per (re)transmission
	Retrans bool   // this transmission is a retransmission
	ECT     bool   // ECN-Capable Transport, ECT(0) or ECT(1) (RFC 3168 §5)
	CE      bool   // ECN Congestion Experienced, set by an AQM that marks
	CWR     bool   // Congestion Window Reduced: the sender reacted to ECE (RFC 3168 §6.1.2)

	// ACKs.
	Ack   uint64 // cumulative ACK: next byte expected
	Sack  [MaxSack]Block
	NSack uint8
	ECE   bool   // echo of CE (RFC 3168)
	Echo  uint64 // TxID of the segment that triggered this ACK (like TSecr)
	Rwnd  int    // receive window advertised, bytes

	// Timestamps. SentAt is set by the sender when the packet leaves it;
	// EnqueuedAt by the queue that holds it (for sojourn-time AQMs).
	SentAt     time.Duration
	EnqueuedAt time.Duration

	// next links packets in free lists and intrusive queues.
	next *Packet
}

// Sacks returns the packet's SACK blocks.
func (p *Packet) Sacks() []Block { return p.Sack[:p.NSack] }

// Pool is a free list of packets. It is not safe for concurrent use: each
// simulated run owns one, which keeps runs deterministic and lock-free.
type Pool struct {
	free *Packet
	// Allocated counts packets ever created by the pool (for leak tests).
	Allocated int
	// Outstanding counts packets taken and not yet returned.
	Outstanding int
}

// Get returns a zeroed packet.
func (pl *Pool) Get() *Packet {
	pl.Outstanding++
	if p := pl.free; p != nil {
		pl.free = p.next
		*p = Packet{}
		return p
	}
	pl.Allocated++
	return &Packet{}
}

// Put returns p to the pool. p must not be used afterwards.
func (pl *Pool) Put(p *Packet) {
	if p == nil {
		return
	}
	pl.Outstanding--
	p.next = pl.free
	pl.free = p
}
