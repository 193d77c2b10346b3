package main

import (
	"strings"
	"testing"
)

func TestProfileListShow(t *testing.T) {
	code, out, _ := runCLI("profile", "list")
	for _, want := range []string{"fixed", "starlink", "sydney", "26ms", "saopaulo", "383ms"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("profile list: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runCLI("profile", "show", "starlink", "--city", "tokyo")
	if code != 0 || !strings.Contains(out, "downlink") || !strings.Contains(out, "terrestrial") {
		t.Fatalf("profile show: exit %d\n%s", code, out)
	}
	code, _, errOut := runCLI("profile", "show", "starlink", "--city", "paris")
	if code != 2 || !strings.Contains(errOut, "paris") || !strings.Contains(errOut, "sydney") {
		t.Fatalf("unknown city: exit %d stderr %q", code, errOut)
	}
}

// Bad Starlink overrides in a scenario → exit 2 with the parameter path and range.
func TestStarlinkOverrideErrors(t *testing.T) {
	for _, c := range []struct{ override, want string }{
		{"{downlink.alloc.base: -5Mbps}", "downlink.alloc.base"},
		{"{downlink.alloc.multiplier: 0.5}", "downlink.alloc.multiplier"},
		{"{downlink.nosuch: 3}", "downlink.nosuch"},
	} {
		body := "version: 1\nduration: 5s\npath:\n  profile: starlink\n  overrides: " + c.override + "\nflows: [{cca: cubic}]\n"
		file := writeFile(t, "s.yaml", body)
		code, _, errOut := runCLI("sim", "-f", file)
		if code != 2 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "path.overrides") {
			t.Errorf("%s: exit %d stderr %q", c.override, code, errOut)
		}
	}
	body := "version: 1\nduration: 5s\npath: {profile: starlink, city: paris}\nflows: [{cca: cubic}]\n"
	if code, _, errOut := runCLI("sim", "-f", writeFile(t, "s.yaml", body)); code != 2 || !strings.Contains(errOut, "path.city") {
		t.Errorf("unknown city: exit %d stderr %q", code, errOut)
	}
}
