package netns

import (
	"fmt"
	"net"
	"os"
	"testing"
)

func needRoot(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("skipping: %v", err)
	}
}

func TestCreateDoDelete(t *testing.T) {
	needRoot(t)
	name := fmt.Sprintf("leolabtest-%d-netns", os.Getpid())
	if err := Create(name); err != nil {
		t.Fatal(err)
	}
	defer Delete(name)
	got, err := List("leolabtest-")
	if err != nil || !contains(got, name) {
		t.Fatalf("List = %v, %v; want it to contain %s", got, err, name)
	}
	// Inside, only the loopback exists; outside, the host's devices.
	var inside []net.Interface
	if err := Do(name, func() error {
		var err error
		inside, err = net.Interfaces()
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(inside) != 1 || inside[0].Name != "lo" || inside[0].Flags&net.FlagUp == 0 {
		t.Fatalf("interfaces inside the namespace = %+v, want only lo, up", inside)
	}
	// The calling thread never left the root namespace.
	if outside, _ := net.Interfaces(); len(outside) <= 1 {
		t.Fatalf("root namespace shows %d interfaces: Do leaked its namespace", len(outside))
	}
	if err := Delete(name); err != nil {
		t.Fatal(err)
	}
	if got, _ := List(name); len(got) != 0 {
		t.Fatalf("namespace %s still listed after Delete", name)
	}
	if err := Delete(name); err != nil {
		t.Fatalf("deleting a missing namespace: %v", err)
	}
}

func TestCommandRunsInside(t *testing.T) {
	needRoot(t)
	name := fmt.Sprintf("leolabtest-%d-cmd", os.Getpid())
	if err := Create(name); err != nil {
		t.Fatal(err)
	}
	defer Delete(name)
	out, err := Command(name, "ip", "-o", "link").Output()
	if err != nil {
		t.Fatal(err)
	}
	if n := countLines(out); n != 1 {
		t.Fatalf("`ip -o link` inside shows %d devices, want 1 (lo):\n%s", n, out)
	}
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
