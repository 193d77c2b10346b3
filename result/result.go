// Package result defines the result schema shared by every engine (sim, emu,
// net) and read by analyze: one JSON document per run. Keys are stable; tests
// and tools rely on them (see DESIGN.md "Results").
package result

// Result is one run.
type Result struct {
	Engine    string   `json:"engine"` // sim, emu or net
	Version   string   `json:"version"`
	Scenario  string   `json:"scenario"`
	Seed      uint64   `json:"seed"`
	EpochUTC  string   `json:"epoch_utc,omitempty"` // RFC 3339 instant of t=0
	DurationS float64  `json:"duration_s"`
	WallS     float64  `json:"wall_s"`
	Path      Path     `json:"path"`
	Flows     []Flow   `json:"flows"`
	Links     []Link   `json:"links"`
	Fairness  Fairness `json:"fairness"`
	// Instrument describes the engine's own measurement quality (events
	// processed, release-time error in emu).
	Instrument map[string]float64 `json:"instrument,omitempty"`
}

// Path summarises the scenario's path.
type Path struct {
	Profile   string  `json:"profile"`
	City      string  `json:"city,omitempty"`
	Direction string  `json:"direction,omitempty"`
	RateMbps  float64 `json:"rate_mbps,omitempty"`
	BaseRTTMs float64 `json:"base_rtt_ms"`
}

// Flow is one flow's outcome.
type Flow struct {
	ID             int     `json:"id"`
	CCA            string  `json:"cca"`
	StartS         float64 `json:"start_s"`
	EndS           float64 `json:"end_s"`
	BytesAcked     int64   `json:"bytes_acked"`
	ThroughputMbps float64 `json:"throughput_mbps"`
	Retransmits    int64   `json:"retransmits"`
	RetransPerGB   float64 `json:"retrans_per_gb"`
	MinRTTMs       float64 `json:"min_rtt_ms"`
	MeanRTTMs      float64 `json:"mean_rtt_ms"`
	P95RTTMs       float64 `json:"p95_rtt_ms"`
	RTTInflation   float64 `json:"rtt_inflation"`
	RTOs           int64   `json:"rtos"`
	// SentPackets: a probe flow's packets sent; a TCP flow's data segments
	// sent, retransmissions included (in sim; what a capture at the sender
	// counts). Probe flows (cbr) report one-way delay and loss instead of
	// RTT.
	SentPackets int64   `json:"sent_packets,omitempty"`
	LostPackets int64   `json:"lost_packets,omitempty"`
	MeanOWDMs   float64 `json:"mean_owd_ms,omitempty"`
	P95OWDMs    float64 `json:"p95_owd_ms,omitempty"`
	// Packets holds one record per probe packet when the flow asked for it
	// (record: true), in sending order.
	Packets []ProbePacket `json:"packets,omitempty"`

	Intervals []Interval `json:"intervals"`
}

// Interval is one sampling interval of a flow (iperf3-style).
type Interval struct {
	T           float64 `json:"t"` // end of the interval, seconds since epoch
	Bytes       int64   `json:"bytes"`
	Retransmits int64   `json:"retransmits"`
	CWndBytes   int     `json:"cwnd_bytes"`
	// RWndBytes is the receive window the sender sees (iperf3's snd_wnd);
	// 0 when the source does not log it.
	RWndBytes     int64              `json:"rwnd_bytes,omitempty"`
	SRTTMs        float64            `json:"srtt_ms"`
	RTTVarMs      float64            `json:"rttvar_ms"`
	PacingRateBps float64            `json:"pacing_rate_bps"`
	CC            map[string]float64 `json:"cc,omitempty"`
	// Probe flows: mean one-way delay of the packets received in the
	// interval and packets of the flow dropped by the links in it.
	OWDMs float64 `json:"owd_ms,omitempty"`
	Lost  int64   `json:"lost,omitempty"`
}

// Link is one link's outcome.
type Link struct {
	Name string `json:"name"`
	// Hop and Direction, in a run over a topology (scenario links:),
	// name the scenario link this is one direction of: forward carries
	// data, reverse ACKs.
	Hop       string       `json:"hop,omitempty"`
	Direction string       `json:"direction,omitempty"`
	Drops     Drops        `json:"drops"`
	Delivered int64        `json:"delivered_bytes"`
	Intervals []LinkSample `json:"intervals"`
}

// Drops counts dropped packets by cause.
type Drops struct {
	Head    int64 `json:"head"`
	Tail    int64 `json:"tail"`
	AQM     int64 `json:"aqm"`
	Random  int64 `json:"random"`
	Outage  int64 `json:"outage"`
	Policer int64 `json:"policer"`
}

// LinkSample is one sampling interval of a link.
type LinkSample struct {
	T              float64 `json:"t"`
	AllocMbps      float64 `json:"alloc_mbps"`
	QueuePkts      int     `json:"queue_pkts"`
	DeliveredBytes int64   `json:"delivered_bytes"`
	Drops          Drops   `json:"drops"` // in this interval
}

// Fairness holds fairness indices over concurrent flows (seed 000).
type Fairness struct {
	Jain         float64   `json:"jain"`
	MaxMin       float64   `json:"max_min"`
	Shares       []float64 `json:"shares,omitempty"`
	WindowStartS float64   `json:"window_start_s"`
	WindowEndS   float64   `json:"window_end_s"`
}

// ProbePacket is one probe packet's fate.
type ProbePacket struct {
	Seq   uint64  `json:"seq"`
	SentS float64 `json:"sent_s"`
	// OWDMs is the one-way delay; -1 when the packet was lost and 0 when it
	// was still in flight at the end of the run.
	OWDMs float64 `json:"owd_ms"`
}
