package paper003

import (
	"fmt"
	"strings"

	"github.com/leolab/leolab/learn/closedloop"
)

// Issue 21's closed-loop criterion (acceptance 2): in a city-direction
// cell the learned model must deliver at least MinThroughputShare of
// BBRv3's throughput with at least MinRetransCut fewer retransmissions
// per GB, and it should be distinguishable from the constant-1.05
// ablation.
const (
	MinThroughputShare = 0.95
	MinRetransCut      = 0.30
)

// CellVerdict is one cell's standing against the criterion.
type CellVerdict struct {
	Cell string
	// ThroughputShare is the linear model's mean throughput over BBRv3's
	// (paired by seed); RetransCut the fraction of BBRv3's
	// retransmissions per GB it saves.
	ThroughputShare, RetransCut float64
	// Meets: both bounds hold. Distinct: the paired difference from
	// const105 in throughput or in retransmissions per GB has a 95 % CI
	// that excludes 0.
	Meets, Distinct bool
}

// ClosedVerdicts judges every cell's linear model against the criterion.
func ClosedVerdicts(cells []ClosedCell) []CellVerdict {
	var out []CellVerdict
	for _, c := range cells {
		thr, rtx := findStat(c.VsBBR, closedloop.ArmLinear, "throughput_mbps"), findStat(c.VsBBR, closedloop.ArmLinear, "retrans_per_gb")
		kt, kr := findStat(c.VsConst, closedloop.ArmLinear, "throughput_mbps"), findStat(c.VsConst, closedloop.ArmLinear, "retrans_per_gb")
		v := CellVerdict{Cell: closedLabel(c.Plan), ThroughputShare: 1 + thr.DiffPct/100, RetransCut: -rtx.DiffPct / 100,
			Distinct: kt.Distinct() || kr.Distinct()}
		v.Meets = v.ThroughputShare >= MinThroughputShare && v.RetransCut >= MinRetransCut
		out = append(out, v)
	}
	return out
}

// closedVerdictLine states how many cells meet the criterion and how
// many tell the model from const105, naming the cells that fail.
func closedVerdictLine(cells []ClosedCell) string {
	vs := ClosedVerdicts(cells)
	var meets, distinct int
	var fail []string
	for _, v := range vs {
		if v.Meets {
			meets++
		} else {
			fail = append(fail, fmt.Sprintf("%s %.0f %% of the throughput, %+.0f %% retransmissions/GB", v.Cell,
				100*v.ThroughputShare, -100*v.RetransCut))
		}
		if v.Distinct {
			distinct++
		}
	}
	s := fmt.Sprintf("Fig. 9 (b), issue 21's criterion (≥ %.0f %% of stock BBRv3's throughput with ≥ %.0f %% fewer "+
		"retransmissions per GB): the linear model meets it in %d of %d city-direction cells", 100*MinThroughputShare,
		100*MinRetransCut, meets, len(vs))
	if len(fail) > 0 {
		s += " (not in " + strings.Join(fail, "; ") + ")"
	}
	return s + fmt.Sprintf(", and is distinguishable from const105 (a 95 %% CI of its paired difference in throughput or "+
		"retransmissions per GB excludes 0) in %d of %d.", distinct, len(vs))
}
