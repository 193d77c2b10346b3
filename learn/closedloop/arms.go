package closedloop

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/cc/lmbbr"
	"github.com/leolab/leolab/profile"

	_ "github.com/leolab/leolab/learn/seq" // lmbbr reads leolab-seq model files
)

// The arms.
const (
	ArmLearned  = "learned"  // lmbbr with the model file given
	ArmBBR      = "bbr"      // stock BBRv3: the default reference of the paired differences
	ArmLinear   = "linear"   // lmbbr with its embedded softmax regression
	ArmConst105 = "const105" // BBRv3 probing at a constant 1.05 (the ablation: is it the model or the gentler probe?)
)

// ArmNames lists the arms in report order.
var ArmNames = []string{ArmLearned, ArmBBR, ArmLinear, ArmConst105}

// Const105Gain is the ablation's UP pacing gain: the smallest gain of
// paper 003's S_UP (eq. 15), which the linear model answers almost
// always (issue 21).
const Const105Gain = 1.05

// Defaults of an evaluation.
const (
	// DefaultCity is a calibration city (the Melbourne site's Sydney
	// server, the shortest RTT: the quickest runs); Tokyo, held out of
	// every fit and of training, is the held-out evaluation (--city tokyo).
	DefaultCity      = "sydney"
	DefaultDirection = "downlink"
	// DefaultSeeds is issue 21's "≥ 10 seeds".
	DefaultSeeds = 10
	// DefaultDuration: 60 s holds four 15 s reconfigurations and 20–30
	// ProbeBW cycles of 2–3 s (tcp_bbr.c bbr_bw_probe_base_us,
	// bbr_bw_probe_rand_us), as the earlier closed-loop test's runs.
	DefaultDuration = 60 * time.Second
)

// Bounds of a plan: beyond them a run says nothing more or takes hours.
const (
	MaxSeeds    = 1000
	MinDuration = 5 * time.Second
	MaxDuration = time.Hour
)

// Plan is an evaluation to run.
type Plan struct {
	City, Direction string
	Seeds           int // seeds 1..Seeds
	Duration        time.Duration
	// Model is the learned arm's model file (any format lmbbr reads).
	Model string
	// Arms to run, in ArmNames order; must hold Ref.
	Arms []string
	// Ref is the arm the others are compared with, seed by seed
	// (ArmBBR; ArmConst105 asks whether the model beats the ablation).
	Ref string
}

// Validate checks the plan, naming each field as its flag.
func (p *Plan) Validate() error {
	if !slices.Contains(profile.Cities(), p.City) {
		return fmt.Errorf("--city %q (allowed: %s)", p.City, strings.Join(profile.Cities(), ", "))
	}
	if p.Direction != "downlink" && p.Direction != "uplink" {
		return fmt.Errorf("--direction %q (allowed: downlink, uplink)", p.Direction)
	}
	if p.Seeds < 1 || p.Seeds > MaxSeeds {
		return fmt.Errorf("--seeds %d is out of range (allowed: 1..%d)", p.Seeds, MaxSeeds)
	}
	if p.Duration < MinDuration || p.Duration > MaxDuration {
		return fmt.Errorf("--duration %v is out of range (allowed: %v..%v)", p.Duration, MinDuration, MaxDuration)
	}
	if len(p.Arms) == 0 {
		return fmt.Errorf("--arms is empty (allowed: %s)", strings.Join(ArmNames, ", "))
	}
	for _, a := range p.Arms {
		if !slices.Contains(ArmNames, a) {
			return fmt.Errorf("--arms: %q (allowed: %s)", a, strings.Join(ArmNames, ", "))
		}
	}
	if !slices.Contains(ArmNames, p.Ref) {
		return fmt.Errorf("--ref %q (allowed: %s)", p.Ref, strings.Join(ArmNames, ", "))
	}
	if !slices.Contains(p.Arms, p.Ref) {
		return fmt.Errorf("--arms %s: must hold %s, the reference (--ref) of the paired differences", strings.Join(p.Arms, ","), p.Ref)
	}
	if slices.Contains(p.Arms, ArmLearned) {
		if p.Model == "" {
			return fmt.Errorf("the %s arm needs --model FILE (a model written by leolab learn train)", ArmLearned)
		}
		if _, err := lmbbr.LoadFile(p.Model); err != nil {
			return fmt.Errorf("--model: %w", err)
		}
	}
	return nil
}

// Runs are the plan's runs, arm by arm in plan order, seed by seed, each
// made by campaign.NewRun (so its id is its engine and scenario text).
// The learned arm's scenario names the model by absolute path and its
// name carries the file's SHA-256, so a changed model is a new run.
func (p *Plan) Runs() ([]campaign.Run, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	model, tag := "", ""
	if slices.Contains(p.Arms, ArmLearned) {
		abs, err := filepath.Abs(p.Model)
		if err != nil {
			return nil, fmt.Errorf("--model: %w", err)
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("--model: %w", err)
		}
		sum := sha256.Sum256(data)
		model, tag = abs, "-"+hex.EncodeToString(sum[:])[:12]
	}
	down := 0
	if p.Direction == "downlink" {
		down = 1
	}
	var out []campaign.Run
	for _, arm := range ArmNames {
		if !slices.Contains(p.Arms, arm) {
			continue
		}
		var flow string
		switch arm {
		case ArmLearned:
			flow = fmt.Sprintf("    - cca: lmbbr\n      params:\n        downlink: %d\n        model: %q\n", down, model)
		case ArmBBR:
			flow = "    - cca: bbr3\n"
		case ArmLinear:
			flow = fmt.Sprintf("    - cca: lmbbr\n      params:\n        downlink: %d\n", down)
		case ArmConst105:
			flow = fmt.Sprintf("    - cca: bbr3\n      params:\n        up_gain: %g\n", Const105Gain)
		}
		for seed := uint64(1); seed <= uint64(p.Seeds); seed++ {
			name := fmt.Sprintf("eval-%s-%s-%s-s%d", arm, p.City, p.Direction, seed)
			if arm == ArmLearned {
				name += tag
			}
			text := fmt.Sprintf("version: 1\nname: %s\nduration: %s\nseed: %d\ninterval: 1s\npath:\n    city: %s\n"+
				"    direction: %s\n    profile: starlink\nflows:\n%s", name, p.Duration, seed, p.City, p.Direction, flow)
			r, err := campaign.NewRun(campaign.DefaultEngine, "eval-"+arm, p.City, p.Direction, []string{arm}, seed, text)
			if err != nil {
				return nil, fmt.Errorf("closedloop: %w", err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}
