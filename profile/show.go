package profile

import (
	"fmt"
	"strings"
)

// YAML prints the profile's resolved parameters, nested by path.
func (sp *StarlinkProfile) YAML() string {
	head := "# profile starlink (seed 001 defaults)\n"
	if sp.City != "" {
		rtt, _ := CityIdleRTT(sp.City)
		head = fmt.Sprintf("# profile starlink, city %s (observed idle RTT %v)\n", sp.City, rtt)
	}
	return render(params(sp), head)
}

// render writes parameters (in struct order, so siblings are adjacent) as
// nested YAML mappings.
func render(ps []param, head string) string {
	var b strings.Builder
	b.WriteString(head)
	var open []string // mapping keys currently open
	for i := range ps {
		segs := strings.Split(ps[i].path, ".")
		parents := segs[:len(segs)-1]
		common := 0
		for common < len(open) && common < len(parents) && open[common] == parents[common] {
			common++
		}
		open = open[:common]
		for _, s := range parents[common:] {
			fmt.Fprintf(&b, "%s%s:\n", strings.Repeat("  ", len(open)), s)
			open = append(open, s)
		}
		fmt.Fprintf(&b, "%s%s: %s\n", strings.Repeat("  ", len(open)), segs[len(segs)-1], ps[i].format())
	}
	return b.String()
}
