package cc

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// Config is what every controller is built from. Algorithm-specific knobs go
// in Params (names documented by each algorithm; unknown names are an error).
type Config struct {
	MSS int // bytes; the transport's maximum segment size
	// InitialCWnd in segments (RFC 6928: 10).
	InitialCWnd int
	// Rand is the controller's own random stream (BBR's ProbeBW phase,
	// PCC's probing order). Never nil when built by the transport.
	Rand *rand.Rand
	// Params are algorithm knobs from the scenario (e.g. hystart: false).
	Params map[string]float64
	// Files are the algorithm's file parameters from the scenario, by
	// name: a path (resolved against the scenario file's directory), e.g.
	// lmbbr's trained model. Names are the algorithm's Info.Files.
	Files map[string]string
	// Schedule, when set, tells the time of the link's next
	// reconfiguration (LeoCC's and SaTCP's trigger). nil when the path has
	// none or the controller must detect it itself.
	Schedule Schedule
}

// Schedule predicts link reconfigurations (Starlink's 15 s slots).
type Schedule interface {
	// Next returns the first reconfiguration at or after now, or a negative
	// duration when there is none.
	Next(now time.Duration) time.Duration
}

// Info describes a registered algorithm.
type Info struct {
	Name        string // lower-case, as in scenarios and `leolab cca list`
	Description string // one line
	Source      string // the authoritative reference it implements
	// Params lists the knobs accepted in Config.Params with their defaults.
	Params map[string]float64
	// Files lists the file parameters accepted in Config.Files, each
	// with what the file must hold (one line); nil for none.
	Files map[string]string
	New   func(Config) (Controller, error)
}

var registry = map[string]Info{}

// Register adds an algorithm. It is called from init functions only; the
// registry is read-only afterwards. Registering a name twice panics.
func Register(info Info) {
	if info.Name == "" || info.New == nil {
		panic("leolab BUG: cc.Register with empty name or constructor")
	}
	if _, dup := registry[info.Name]; dup {
		panic("leolab BUG: cc.Register called twice for " + info.Name)
	}
	registry[info.Name] = info
}

// Lookup returns the named algorithm.
func Lookup(name string) (Info, bool) {
	i, ok := registry[name]
	return i, ok
}

// Names returns the registered names in sorted order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// New builds the named controller, checking Params against the algorithm's
// declared knobs.
func New(name string, cfg Config) (Controller, error) {
	info, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown congestion control %q (allowed: %s)", name, strings.Join(Names(), ", "))
	}
	for k := range cfg.Params {
		if _, ok := info.Params[k]; !ok {
			known := make([]string, 0, len(info.Params))
			for p := range info.Params {
				known = append(known, p)
			}
			slices.Sort(known)
			return nil, fmt.Errorf("congestion control %s: unknown parameter %q (allowed: %s)", name, k, strings.Join(known, ", "))
		}
	}
	for k := range cfg.Files {
		if _, ok := info.Files[k]; !ok {
			return nil, fmt.Errorf("congestion control %s: unknown file parameter %q (allowed: %s)", name, k, strings.Join(FileNames(info), ", "))
		}
	}
	if cfg.MSS <= 0 {
		cfg.MSS = 1448
	}
	if cfg.InitialCWnd <= 0 {
		cfg.InitialCWnd = 10
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	return info.New(cfg)
}

// Param returns cfg.Params[name] or def when absent.
func (cfg Config) Param(name string, def float64) float64 {
	if v, ok := cfg.Params[name]; ok {
		return v
	}
	return def
}

// FileNames lists info's file parameters in sorted order ("none" when it
// has none), for error messages.
func FileNames(info Info) []string {
	if len(info.Files) == 0 {
		return []string{"none"}
	}
	names := make([]string, 0, len(info.Files))
	for k := range info.Files {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// File returns cfg.Files[name] or "" when absent.
func (cfg Config) File(name string) string { return cfg.Files[name] }
