package irtt

import (
	"os"
	"testing"
)

// FuzzRead: whatever the bytes (plain or gzipped), Read returns a capture
// or an error, never panics, and what it returns makes traces and a flow
// without panicking either.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/loopback.json", "testdata/loopback.json.gz"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"config":{"ip_version":"IPv4","params":{"interval":1,"length":0}},"round_trips":[{"seqno":0,"lost":"true_down","timestamps":{"client":{"send":{"wall":1}}}}]}`))
	f.Add([]byte(`{"config":{"ip_version":"IPv6","params":{"interval":1000000,"length":60}},"round_trips":[{"seqno":0,"lost":false,"timestamps":{"client":{"send":{"wall":9},"receive":{"wall":604800000000009}}},"delay":{"receive":-600000000000,"send":1}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Read("fuzz.json", data)
		if err != nil {
			return
		}
		for _, dir := range []string{Downlink, Uplink} {
			_, _ = c.Trace(dir)
			if _, err := c.Flow(dir); err != nil {
				t.Fatal(err)
			}
		}
	})
}
