package profile

import "time"

// StarlinkProfile is the resolved Starlink access-link model: one terminal's
// downlink (queue on the satellite) and uplink (queue on the terminal), the
// shared reconfiguration schedule, the PoP limiter and the city's terrestrial
// leg. Every field is a parameter addressable by its dotted YAML path (e.g.
// "downlink.queue.limit_packets"); the tags give each one's allowed range.
// The defaults and their sources are in starlink.yaml.
type StarlinkProfile struct {
	Name string `yaml:"-"`
	City string `yaml:"-"` // "" for the generic seed-001 profile

	TDMA        TDMA        `yaml:"tdma"`
	Reconfig    Reconfig    `yaml:"reconfig"`
	Downlink    Access      `yaml:"downlink"`
	Uplink      Access      `yaml:"uplink"`
	PoP         PoP         `yaml:"pop"`
	Terrestrial Terrestrial `yaml:"terrestrial"`
}

// TDMA is the MAC framing shared by both directions.
type TDMA struct {
	// Frame is the MAC frame: packets are served in per-frame batches.
	Frame time.Duration `yaml:"frame" range:"1us,100ms"`
	// KeyedDraws draws the per-packet random processes (outage arrival
	// loss, AQM, random loss, the terrestrial leg's loss) as common random
	// numbers keyed by frame and position (link.Draw); off, from one
	// sequential stream per link. Counterfactual replays turn it on.
	KeyedDraws bool `yaml:"keyed_draws"`
	// GROSegments has each end's receiver take up to this many of the
	// segments a frame delivers together as one (Linux generic receive
	// offload merges in-order segments that arrive in one NAPI poll into
	// one skb, and TCP ACKs per skb): an ACK per batch of up to
	// GROSegments instead of one per two segments. 0: off.
	GROSegments int `yaml:"gro_segments" range:"0,45"`
}

// Reconfig is the 15 s reconfiguration schedule and what each boundary does
// beyond the per-direction outage, reset and drift.
type Reconfig struct {
	// Period between boundaries; Offset places them within the UTC minute
	// (boundaries where (epoch + t - offset) mod period == 0).
	Period   time.Duration `yaml:"period" range:"100ms,1h"`
	Offset   time.Duration `yaml:"offset" range:"0s,1h"`
	RTTSteps RTTSteps      `yaml:"rtt_steps"`
	Spikes   Spikes        `yaml:"spikes"`
}

// RTTSteps are base-RTT level changes at boundaries (Pan et al.): each
// boundary moves the path's extra base RTT by a step drawn from ±Magnitudes,
// kept within [0, MaxExcess]. Half of the RTT step goes to each direction.
type RTTSteps struct {
	Enabled    bool            `yaml:"enabled"`
	Magnitudes []time.Duration `yaml:"magnitudes" range:"0s,1s"`
	MaxExcess  time.Duration   `yaml:"max_excess" range:"0s,10s"`
}

// Spikes add extra one-way delay to packets served in the first Head and the
// last Tail of each slot.
type Spikes struct {
	Enabled bool          `yaml:"enabled"`
	Head    time.Duration `yaml:"head" range:"0s,15s"`
	Tail    time.Duration `yaml:"tail" range:"0s,15s"`
	Extra   time.Duration `yaml:"extra" range:"0s,1s"`
}

// Access is one direction of the access link.
type Access struct {
	// BaseOWD is the idle one-way delay excluding the wait for the next TDMA
	// frame (the idle minimum; the idle mean is BaseOWD + Frame/2).
	BaseOWD time.Duration `yaml:"base_owd" range:"0s,1s"`
	// RandomLoss is the i.i.d. loss probability of a served packet.
	RandomLoss float64 `yaml:"random_loss" range:"0,0.5"`
	Queue      Queue   `yaml:"queue"`
	Alloc      Alloc   `yaml:"alloc"`
	AQM        AQM     `yaml:"aqm"`
	Outage     Outage  `yaml:"outage"`
	Drift      Drift   `yaml:"drift"`
}

// Queue is the head-drop buffer and its flow scheduler.
type Queue struct {
	// LimitPackets bounds the shared buffer in packets (not bytes).
	LimitPackets int `yaml:"limit_packets" range:"1,1000000"`
	// Isolation enables per-flow queues served by deficit round robin; off,
	// all flows share one FIFO.
	Isolation bool `yaml:"isolation"`
	// QuantumBytes is the DRR quantum.
	QuantumBytes int `yaml:"quantum_bytes" range:"64,65536"`
}

// Alloc is the per-terminal demand-driven allocation.
type Alloc struct {
	Base       float64 `yaml:"base" unit:"rate" range:"1kbps,100Gbps"`
	Multiplier float64 `yaml:"multiplier" range:"1,100"`
	// Ramp is the time to grow from Base to Base*Multiplier under pressure;
	// Regrow the same after a reconfiguration reset.
	Ramp   time.Duration `yaml:"ramp" range:"1ms,60s"`
	Regrow time.Duration `yaml:"regrow" range:"1ms,60s"`
	// Decay is the time to fall linearly from the maximum back to Base once
	// demand stopped (and Hold elapsed).
	Decay time.Duration `yaml:"decay" range:"1ms,60s"`
	Hold  time.Duration `yaml:"hold" range:"0s,60s"`
	// HoldUntilEmpty delays the decay until the queue has drained below
	// PressurePackets, so the hold lasts longer with queue occupancy.
	HoldUntilEmpty bool `yaml:"hold_until_empty"`
	// PressurePackets is the backlog above which the queue is under pressure.
	PressurePackets int `yaml:"pressure_packets" range:"0,1000000"`
	// DemandWindow is the averaging time of the arrival-rate estimate.
	DemandWindow time.Duration `yaml:"demand_window" range:"1ms,10s"`
	// Growth needs arrivals >= DemandHigh*allocation; demand has stopped
	// when arrivals < DemandLow*allocation.
	DemandHigh float64 `yaml:"demand_high" range:"0,10"`
	DemandLow  float64 `yaml:"demand_low" range:"0,10"`
}

// AQM is the active queue manager deciding on each arrival.
type AQM struct {
	// Mode: "adaptive" (RED whose max probability adapts to keep the mean
	// queue within [TargetLow, TargetHigh] of the limit, A-RED style),
	// "linear" (drop probability MaxProb*q/MaxPackets, capped at 1) or "off".
	Mode string `yaml:"mode" enum:"adaptive,linear,off"`
	// PerFlow makes q the arriving packet's flow queue rather than the
	// shared buffer. With queue.isolation off there is one queue, so the
	// AQM sees the shared buffer either way.
	PerFlow       bool          `yaml:"per_flow"`
	MinPackets    int           `yaml:"min_packets" range:"0,1000000"`
	MaxPackets    int           `yaml:"max_packets" range:"1,1000000"`
	MaxProb       float64       `yaml:"max_prob" range:"0,1"`
	MaxProbFloor  float64       `yaml:"max_prob_floor" range:"0,1"`
	MaxProbCap    float64       `yaml:"max_prob_cap" range:"0,1"`
	AdaptInterval time.Duration `yaml:"adapt_interval" range:"1ms,60s"`
	AdaptUp       float64       `yaml:"adapt_up" range:"1,100"`
	AdaptDown     float64       `yaml:"adapt_down" range:"0.01,1"`
	TargetLow     float64       `yaml:"target_low" range:"0,1"`
	TargetHigh    float64       `yaml:"target_high" range:"0,1"`
	// AvgTime, when positive, makes the queue the AQM acts on an
	// exponentially weighted average of the shared queue with this time
	// constant, as RED's avg (Floyd & Jacobson 1993, §4: the average, not
	// the instantaneous queue, so that a transient burst is not dropped),
	// with the weight of each arrival 1-exp(-dt/AvgTime) so that it does
	// not depend on the packet rate and decays over idle time (Floyd &
	// Jacobson's idle correction). 0 is the instantaneous queue (seed
	// 001's model). Not with per_flow.
	AvgTime time.Duration `yaml:"avg_time" range:"0s,60s"`
	// Sojourn, when true, makes the queue the AQM acts on (at each arrival
	// and in max_p's adaptation) the waiting time of the oldest packet in
	// the shared buffer, in packets at the current allocation and the
	// buffer's mean packet size: a delay-based estimate at the front of the
	// buffer, as PIE (RFC 8033) and CoDel (RFC 8289) judge the queue by
	// delay. With one flow it is about the packet count; with per-flow DRR
	// it is the longest flow's wait times the whole rate, so at the same
	// packet count the estimate grows with the number of backlogged flows
	// (leolab session 17, calibrate/fits/README.md). With per_flow it is
	// the arriving packet's own flow's head wait at the whole allocation,
	// so each flow is judged by its own delay as fq_codel judges each
	// flow's sojourn (RFC 8290 §4): one flow reads about its packet count,
	// each of n backlogged flows served 1/n of the rate reads n times its
	// count (leolab issue 17, calibrate/fits/README.md). false is seed
	// 001's packet count.
	Sojourn bool `yaml:"sojourn"`
}

// Outage is the service interruption at each reconfiguration boundary.
type Outage struct {
	Duration time.Duration `yaml:"duration" range:"0s,10s"`
	// DropArrivals drops packets arriving during the outage (DropOutage)
	// instead of queueing them.
	DropArrivals bool `yaml:"drop_arrivals"`
	// ArrivalLoss is the probability that a packet arriving during the
	// outage is lost (DropOutage); DropArrivals is ArrivalLoss = 1. A
	// fraction, so that `leolab calibrate` can fit it.
	ArrivalLoss float64 `yaml:"arrival_loss" range:"0,1"`
	// CleanProb is the probability that a boundary's outage loses none of
	// its arrivals; the others lose each arrival with ArrivalLoss. Drawn
	// per boundary from the slot stream, so the loss of one boundary is
	// all-or-nothing rather than the same fraction every 15 s: in the
	// real Sydney downlink cubic trace 6 of 19 boundaries lose at most 3 %
	// of their outage arrivals (0 of 69, 5 of 644) while the others lose
	// 8-54 % (mean 19 %), far outside one fraction's binomial spread
	// (leolab issue 17, calibrate/fits/README.md). 0 is seed 001's model.
	CleanProb float64 `yaml:"clean_prob" range:"0,1"`
}

// Drift is the per-slot change of the stable rate and base OWD.
type Drift struct {
	// MedianRateChange is the median |change| of the stable (maximum)
	// allocation between consecutive slots.
	MedianRateChange float64 `yaml:"median_rate_change" unit:"rate" range:"0bps,100Gbps"`
	// OWDMax bounds a slot's extra base OWD, drawn uniformly in [0, OWDMax].
	OWDMax time.Duration `yaml:"owd_max" range:"0s,1s"`
	// LossSpread is the standard deviation of the natural log of a slot's
	// random-loss factor: each slot's i.i.d. loss probability is
	// random_loss x exp(s·Z - s²/2), Z standard normal, so random_loss
	// stays the mean over slots. 0 keeps one loss rate for every slot.
	LossSpread float64 `yaml:"loss_spread" range:"0,4"`
}

// PoP is the rate limiter at the point of presence in front of the downlink.
type PoP struct {
	Enabled      bool    `yaml:"enabled"`
	Rate         float64 `yaml:"rate" unit:"rate" range:"1kbps,1Tbps"`
	LimitPackets int     `yaml:"limit_packets" range:"1,1000000"`
}

// Terrestrial is the city's fixed leg between the PoP and the server.
type Terrestrial struct {
	OneWay time.Duration `yaml:"one_way" range:"0s,10s"`
	// DownlinkLoss is the i.i.d. loss probability of the leg in the
	// server → PoP direction (the downlink's data, the uplink's ACKs). A
	// per-city parameter: the seed-000 data shows loss on the path of one
	// city that the shared access link does not explain (cities.yaml).
	DownlinkLoss float64 `yaml:"downlink_loss" range:"0,0.5"`
}

// MaxRate is the direction's nominal stable allocation, Base*Multiplier.
func (a Access) MaxRate() float64 { return a.Alloc.Base * a.Alloc.Multiplier }
