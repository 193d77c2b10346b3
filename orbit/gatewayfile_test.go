package orbit

import (
	"strings"
	"testing"
)

// A user's gateway table: header, comments and blank lines skipped; each
// bad line refused naming the file and line and what is allowed.
func TestReadGateways(t *testing.T) {
	gws, err := ReadGateways("gw.csv", strings.NewReader("name,lat,lon\n# Canberra\n\ncanberra, -35.28, 149.13\nperth,-31.95,115.86\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(gws) != 2 || gws[0].Name != "canberra" || gws[0].Lat != -35.28 || gws[1].Lon != 115.86 || gws[0].Source != "gw.csv" {
		t.Fatalf("%+v", gws)
	}
	for _, c := range []struct{ text, want string }{
		{"a,1,2\nb,95,2\n", `gw.csv:2: gateway "b": "95,2": latitude 95 outside -90..90`},
		{"a\n", `gw.csv:1: "a": want name,lat,lon`},
		{",1,2\n", `gw.csv:1: ",1,2": want name,lat,lon`},
		{"a,1,2\na,3,4\n", `gw.csv:2: gateway "a" already on line 1: names must be unique`},
		{"a,1\n", `gw.csv:1: gateway "a": "1": want LAT,LON`},
		{"# nothing\n", `gw.csv: no gateways`},
	} {
		if _, err := ReadGateways("gw.csv", strings.NewReader(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}
