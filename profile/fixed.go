package profile

import "time"

// FixedProfile is a constant-rate bottleneck for controlled studies: rate,
// base RTT, one queue and i.i.d. loss. Defaults are in fixed.yaml.
type FixedProfile struct {
	Name  string        `yaml:"-"`
	Rate  float64       `yaml:"rate" unit:"rate" range:"1kbps,1Tbps"`
	RTT   time.Duration `yaml:"rtt" range:"0s,10s"`
	Queue FixedQueue    `yaml:"queue"`
	// Loss is the i.i.d. loss probability per packet.
	Loss float64 `yaml:"loss" range:"0,0.5"`
}

// FixedQueue is the fixed link's queue.
type FixedQueue struct {
	Discipline   string `yaml:"discipline" enum:"droptail,headdrop"`
	LimitPackets int    `yaml:"limit_packets" range:"1,10000000"`
}
