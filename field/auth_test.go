package field

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// A server with a token takes requests signed with it and refuses, with
// the reason, a missing or wrong token, a replay and a stale request.
func TestProbeToken(t *testing.T) {
	addr, lg := startServer(t, &Server{Token: "s3cret"})
	spec := probeSpec(addr, 300*time.Millisecond)
	spec.Token = "s3cret"
	if _, err := Probe(context.Background(), spec); err != nil {
		t.Fatalf("right token: %v", err)
	}
	spec.Token = ""
	wantRefused(t, spec, "this server requires a token (--token or LEOLAB_TOKEN)")
	spec.Token = "guess"
	wantRefused(t, spec, "authentication failed: wrong token")

	// The same signed request twice: the second is a replay. A request
	// signed ten minutes ago is stale.
	req := request{Version: version, Direction: Up, RateBps: 8e6, Size: 1000, DurationNs: int64(time.Second)}
	sign("s3cret", &req, time.Now())
	for i, want := range []string{"", "a replayed request"} {
		if got := rawRequest(t, addr, req); !strings.Contains(got, want) || (want == "" && got != "") {
			t.Errorf("signed request, try %d: %q, want %q", i+1, got, want)
		}
	}
	sign("s3cret", &req, time.Now().Add(-10*time.Minute))
	if got := rawRequest(t, addr, req); !strings.Contains(got, "off the server's clock (allowed ±5m0s") {
		t.Errorf("stale request: %q", got)
	}
	// A tampered request (a higher rate under the old MAC) fails.
	sign("s3cret", &req, time.Now())
	req.RateBps *= 10
	if got := rawRequest(t, addr, req); got != errWrongAuth.Error() {
		t.Errorf("tampered request: %q", got)
	}
	// Refused requests got no session: nothing was opened for them.
	if n := lg.count("probe on UDP port"); n != 2 {
		t.Errorf("%d sessions opened, want 2 (the right token's and the first signed request's)", n)
	}
}

// A server without a token ignores a client's signature.
func TestProbeTokenOptional(t *testing.T) {
	addr, _ := startServer(t, nil)
	spec := probeSpec(addr, 300*time.Millisecond)
	spec.Token = "anything"
	if _, err := Probe(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
}

// rawRequest sends req on a fresh connection and returns the server's
// refusal ("" when accepted).
func rawRequest(t *testing.T, addr string, req request) string {
	t.Helper()
	c, err := net.Dial("tcp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctl := newControl(c)
	if err := ctl.send(req); err != nil {
		t.Fatal(err)
	}
	var acc accept
	if err := ctl.recv(&acc, 5*time.Second, replyLine); err != nil {
		t.Fatal(err)
	}
	return acc.Error
}
