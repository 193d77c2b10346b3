package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/leolab/leolab/result"
)

func TestEmuBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--rate", "nope"}, {"--flows", "0"}, {"--duration", "0s"}, {"--direction", "sideways"}, {"--loss", "1"},
	} {
		c := newEmuCmd()
		c.SetOut(&bytes.Buffer{})
		err := execCmd(t, c, args...)
		if _, ok := err.(usageError); !ok {
			t.Errorf("emu %v: %T %v, want a usage error", args, err, err)
		}
	}
}

func TestEmuRunJSON(t *testing.T) {
	needEmu(t)
	var out bytes.Buffer
	c := newEmuCmd()
	c.SetOut(&out)
	if err := execCmd(t, c, "--rate", "20Mbps", "--rtt", "20ms", "--cca", "reno", "--duration", "2s", "--json"); err != nil {
		t.Fatal(err)
	}
	var res result.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if res.Engine != "emu" || len(res.Flows) != 1 || res.Flows[0].CCA != "reno" || res.Path.RateMbps != 20 {
		t.Fatalf("result %+v", res)
	}
	if tp := res.Flows[0].ThroughputMbps; tp < 10 || tp > 20 {
		t.Errorf("reno %.2f Mbit/s on a 20 Mbit/s link for 2 s, want 10–20", tp)
	}
	if _, ok := res.Instrument["release_err_p99_us"]; !ok {
		t.Errorf("no pump instrument in the result: %v", res.Instrument)
	}
}

func TestEmuCleanupReports(t *testing.T) {
	needEmu(t)
	var out bytes.Buffer
	c := newEmuCmd()
	c.SetOut(&out)
	if err := execCmd(t, c, "--cleanup"); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "nothing to clean up") && !strings.Contains(s, "removed namespace") {
		t.Errorf("cleanup printed %q", s)
	}
}
