package scenario

import (
	"time"

	"github.com/leolab/leolab/link/qdisc"
	"github.com/leolab/leolab/link/schedule"
	"github.com/leolab/leolab/profile"
)

// Version is the scenario schema version this package reads.
const Version = 1

// Defaults for fields a scenario may omit. Each is what a user of iperf3
// would expect.
const (
	DefaultSeed     = 1
	DefaultInterval = time.Second // iperf3's reporting interval
)

// Scenario is a validated scenario.
type Scenario struct {
	File     string // where it came from ("" for the flag form)
	Name     string
	Duration time.Duration
	Seed     uint64
	Interval time.Duration
	// EpochUTC places t = 0 on the wall clock (zero: drawn from the seed,
	// DESIGN.md "Time"). On Starlink only its second within the minute
	// matters: it fixes where the reconfigurations fall, e.g. to replay a
	// measurement's or a live run's timing.
	EpochUTC time.Time
	Path     Path
	// Links, when set instead of Path, are a topology (topology.go).
	Links []Hop
	Flows []Flow

	lines    map[string]int           // field path → line in File, for errors
	starlink *profile.StarlinkProfile // resolved by Validate for profile starlink
	// read by Validate from path.delay_file
	pathLog     *schedule.PathLog
	handoverErr *schedule.ECDF
	// computed by Validate from path.orbit (orbit_validate.go)
	orbit *orbitSlots
}

// Path is the network path. Profile "fixed" uses Rate/RTT/Queue/Loss;
// "starlink" and "starlink-seed001" use City/Direction/Overrides.
type Path struct {
	Profile   string
	City      string
	Direction string // downlink or uplink (data direction)
	Overrides map[string]any

	// fixed profile
	RateBps float64
	RTT     time.Duration
	Queue   Queue
	Loss    float64
	// Reverse is the ACK path of a fixed link; zero values mean the
	// forward rate and an unbounded queue without loss.
	Reverse Reverse
	// Schedule changes a fixed link's rate, rtt and loss during the run;
	// DelayFile replays a path file's one-way delays (timevarying.go).
	Schedule  []Change
	DelayFile *DelayFile

	// Trace configures profile trace (scenario/trace.go).
	Trace TracePath

	// LossModel adds a modelled loss stage (seed 000's p_tot) to the data
	// direction, Orbit is the geometry its slots come from, and OWDSource
	// orbit takes the path's per-slot delay from that geometry
	// (orbit*.go; profiles fixed and starlink, sim only).
	LossModel *LossModel
	Orbit     *OrbitPath
	OWDSource string
}

// Queue configures a fixed link's bottleneck queue (see link/qdisc).
type Queue struct {
	Discipline   string // one of Disciplines; "" is droptail
	LimitPackets int
	LimitBytes   int
	ECN          bool               // mark ECN-capable packets instead of dropping
	Params       map[string]float64 // by qdisc parameter name; durations in ns
}

// IsZero reports whether nothing is configured.
func (q Queue) IsZero() bool {
	return q.Discipline == "" && q.LimitPackets == 0 && q.LimitBytes == 0 && !q.ECN && len(q.Params) == 0
}

// Reverse configures the ACK direction of a fixed link.
type Reverse struct {
	RateBps float64
	Queue   Queue
	Loss    float64
}

// Flow is one entry of flows (Count expanded later).
type Flow struct {
	CCA    string
	Params map[string]float64
	// Files are the controller's file parameters (string values in
	// params), paths resolved against the scenario file's directory.
	Files  map[string]string
	Start  time.Duration
	Stop   time.Duration
	Count  int
	Bytes  int64
	SndBuf int64 // send buffer, bytes (0: transport.DefaultSndBuf)
	Rwnd   int64 // receiver's window ceiling, bytes (0: transport.DefaultRwnd)
	// MaxRateBps is the sending host's egress limit for a TCP flow, bits/s
	// of whole packets (0: none; transport.SenderConfig.MaxRateBps).
	MaxRateBps float64
	// MaxRateBurst is that limit's burst credit, bytes (0: one GSO burst,
	// transport.MinHostBurst).
	MaxRateBurst int64
	ExtraRTT     time.Duration
	RateBps      float64 // cbr
	PacketSize   int     // cbr
	Record       bool    // cbr: per-packet records in the result
	// Route names the links the flow crosses (with Links) and Moves
	// re-route it during the run (topology.go).
	Route []string
	Moves []Move
}

// Starlink returns the resolved Starlink profile of a validated scenario
// with profile starlink (city and overrides applied), nil otherwise. The live
// emulator rebuilds the path from it on the wall clock.
func (s *Scenario) Starlink() *profile.StarlinkProfile { return s.starlink }

// Disciplines lists the queue disciplines of a fixed link.
var Disciplines = qdisc.Names()

// Directions lists the allowed path directions.
var Directions = []string{"downlink", "uplink"}
