package paper002

import (
	"fmt"
	"strings"
)

// Finding 3 of seed 002, judged on each learned scheme leolab has: Vivace
// (pcc), Orca, Astraea and Sage (all three retrained here).

// learnedNote is what the captions and notes say of the learned schemes.
const learnedNote = "Orca, Astraea and Sage retrained here (the authors' weights are not used)."

// rlSchemes are the learning-based schemes finding 3 is judged on.
var rlSchemes = []string{"pcc", "orca", "astraea", "sage"}

// humanSchemes are the human-designed schemes they are measured against.
var humanSchemes = []string{"bbr3", "cubic"}

// dynamicMetric is one number finding 3's first half compares under
// changing conditions (higher is better for all three).
type dynamicMetric struct {
	key, what, unit string
	digits          int
}

var dynamicMetrics = []dynamicMetric{
	{"fig1.goodput.", "LeoEM path with handovers (Fig. 1) goodput", " Mbit/s", 1},
	{"fig3.util.", "mean utilisation over the bandwidth steps (Fig. 3)", "", 3},
	{"fig4.util200.", "utilisation after the 50 → 200 ms RTT step (Fig. 4)", "", 3},
}

// lossKey is the random-loss rate finding 3's second half reads.
const lossKey = "0.01"

// rlFinding is finding 3 when Fig. 1 and the random-loss check ran for
// the human-designed schemes and at least one learned one.
func (d *Data) rlFinding() (finding, bool) {
	if !d.have("fig1.goodput.bbr3", "fig1.goodput.cubic", "loss.goodput.cubic."+lossKey) {
		return finding{}, false
	}
	var checks []int
	var names, parts []string
	for _, rl := range rlSchemes {
		c, text, ok := d.rlScheme(rl)
		if !ok {
			continue
		}
		checks = append(checks, c...)
		names = append(names, schemeName(rl))
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return finding{}, false
	}
	return finding{
		claim: "(3) RL-based schemes severely underperform under dynamic conditions, despite being notably resistant to non-congestive loss (here: " +
			andList(names) + "; " + learnedNote + ")",
		verdict: verdict(checks...),
		numbers: strings.Join(parts, " ") + " (Underperforming: the learned scheme's interval below both BBRv3's and CUBIC's; resisting loss: its goodput at 1 % random loss above CUBIC's, intervals apart.)",
	}, true
}

// rlScheme is one learned scheme's checks and sentence: under each
// dynamic condition it underperforms when its interval lies below BBRv3's
// and below CUBIC's (two checks), and it resists random loss when its
// goodput at 1 % loss lies above CUBIC's (loss-based, the scheme the seed
// contrasts). ok is false when its Fig. 1 or loss numbers are missing.
func (d *Data) rlScheme(rl string) (checks []int, text string, ok bool) {
	lk := "loss.goodput." + rl + "." + lossKey
	if !d.have("fig1.goodput."+rl, lk) {
		return nil, "", false
	}
	var dyn []int
	var sents []string
	for _, m := range dynamicMetrics {
		if !d.have(m.key + rl) {
			continue
		}
		var against []string
		for _, h := range humanSchemes {
			if !d.have(m.key + h) {
				continue
			}
			dyn = append(dyn, cmp(d.est(m.key+h), d.est(m.key+rl)))
			against = append(against, fmt.Sprintf("%s %s", schemeName(h), d.f(m.key+h, m.digits)))
		}
		sents = append(sents, fmt.Sprintf("%s %s%s (%s)", m.what, d.f(m.key+rl, m.digits), m.unit, strings.Join(against, ", ")))
	}
	resist := cmp(d.est(lk), d.est("loss.goodput.cubic."+lossKey))
	checks = append(dyn, resist)
	text = fmt.Sprintf("%s: %s under dynamics — %s; %s random loss — at 1 %% loss %s Mbit/s (CUBIC %s, BBRv3 %s; no loss: %s, CUBIC %s).",
		schemeName(rl), underperforms(dyn), strings.Join(sents, "; "), resists(resist),
		d.f(lk, 1), d.f("loss.goodput.cubic."+lossKey, 1), d.f("loss.goodput.bbr3."+lossKey, 1),
		d.f("loss.goodput."+rl+".0", 1), d.f("loss.goodput.cubic.0", 1))
	return checks, text, true
}

// underperforms states a learned scheme's comparisons with the
// human-designed schemes under dynamics (+1: it is below).
func underperforms(checks []int) string {
	below, above := tally(checks)
	var v string
	switch {
	case below == len(checks):
		v = "underperforms"
	case above == len(checks):
		v = "does not underperform"
	case below > 0 && above == 0:
		v = "underperforms (the rest not resolved by the intervals)"
	case below > 0:
		v = "underperforms in part"
	case above > 0:
		v = "does not underperform (in part not resolved)"
	default:
		v = "not resolved"
	}
	return fmt.Sprintf("%s (below in %d, above in %d of %d comparisons with BBRv3 and CUBIC)", v, below, above, len(checks))
}

// resists states the random-loss check (+1: above CUBIC).
func resists(c int) string {
	switch {
	case c > 0:
		return "resists"
	case c < 0:
		return "does not resist"
	}
	return "not resolved whether it resists"
}

// andList joins names as "a", "a and b" or "a, b and c".
func andList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
