package orbit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// ReadGateways reads a gateway table a user supplies in place of the
// built-in one: one site a line, "name,lat,lon" in decimal degrees; blank
// lines, lines starting with '#' and a first line "name,lat,lon" (a CSV
// header) are skipped. Errors name the file and line.
func ReadGateways(name string, r io.Reader) ([]Site, error) {
	var out []Site
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || len(out) == 0 && strings.EqualFold(strings.ReplaceAll(text, " ", ""), "name,lat,lon") {
			continue
		}
		gname, ll, ok := strings.Cut(text, ",")
		gname = strings.TrimSpace(gname)
		if !ok || gname == "" {
			return nil, fmt.Errorf("%s:%d: %q: want name,lat,lon (e.g. canyonleigh-nsw,-34.57,150.13)", name, line, clip(text))
		}
		s, err := ParseLatLon(ll)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: gateway %q: %v", name, line, gname, err)
		}
		if prev, dup := seen[gname]; dup {
			return nil, fmt.Errorf("%s:%d: gateway %q already on line %d: names must be unique", name, line, gname, prev)
		}
		seen[gname] = line
		s.Name, s.Source = gname, name
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no gateways (want one name,lat,lon a line)", name)
	}
	return out, nil
}

// ReadGatewaysFile is ReadGateways on a file.
func ReadGatewaysFile(name string) ([]Site, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ReadGateways(name, fh)
}
