package field

import (
	"fmt"
	"net/netip"
	"sync"
	"time"
)

// admission enforces a server's caps on sessions (in total and per client
// IP) and on probe bytes per client IP over the last hour. A session is
// charged its request's volume when admitted, corrected to what it
// really moved when it ends.
type admission struct {
	lim   Limits
	mu    sync.Mutex
	total int
	ips   map[netip.Addr]*ipUse
}

// ipUse is one client address's sessions and bytes by minute.
type ipUse struct {
	sessions int
	minutes  map[int64]int64 // Unix minute → bytes
}

// maxTrackedIPs bounds the addresses remembered for the byte cap (~2 kB
// each at most): a server that many distinct addresses probe within an
// hour refuses new ones until old ones age out.
const maxTrackedIPs = 1 << 16

// ticket is an admitted session's claim.
type ticket struct {
	ip      netip.Addr
	minute  int64
	charged int64
}

func newAdmission(l Limits) *admission {
	return &admission{lim: l, ips: make(map[netip.Addr]*ipUse)}
}

func unixMinute(t time.Time) int64 { return t.Unix() / 60 }

// used is u's bytes in the hour up to now, dropping older minutes.
func (u *ipUse) used(now int64) int64 {
	var sum int64
	for m, b := range u.minutes {
		if m <= now-60 {
			delete(u.minutes, m)
			continue
		}
		sum += b
	}
	return sum
}

// admit admits a session from ip that asks for bytes, or says which cap
// it would break.
func (a *admission) admit(ip netip.Addr, bytes int64, now time.Time) (*ticket, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.total >= a.lim.Sessions {
		return nil, fmt.Errorf("server busy: %d probes running, its cap (--max-sessions); try again later", a.total)
	}
	m := unixMinute(now)
	u := a.ips[ip]
	if u == nil {
		if len(a.ips) >= maxTrackedIPs {
			a.prune(m)
		}
		if len(a.ips) >= maxTrackedIPs {
			return nil, fmt.Errorf("server busy: %d client addresses within the hour; try again later", len(a.ips))
		}
		u = &ipUse{minutes: make(map[int64]int64)}
		a.ips[ip] = u
	}
	if u.sessions >= a.lim.SessionsPerIP {
		return nil, fmt.Errorf("probes from %v running already: %d, the server's cap per address (--max-sessions-per-ip)", ip, u.sessions)
	}
	if have := u.used(m); have+bytes > a.lim.BytesPerIPHour {
		return nil, fmt.Errorf("a probe of %d bytes would bring %v's last hour to %d bytes, over the server's cap of %d per address per hour (--max-bytes-per-ip): ask for a slower or shorter probe, or wait",
			bytes, ip, have+bytes, a.lim.BytesPerIPHour)
	}
	a.total++
	u.sessions++
	u.minutes[m] += bytes
	return &ticket{ip: ip, minute: m, charged: bytes}, nil
}

// release ends an admitted session that moved used bytes (at most what
// it was charged: the sender stops at the request's count, and a receiver
// is not charged for what a client sent beyond it).
func (a *admission) release(t *ticket, used int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total--
	u := a.ips[t.ip]
	u.sessions--
	if _, ok := u.minutes[t.minute]; ok {
		u.minutes[t.minute] -= t.charged - min(max(used, 0), t.charged)
	}
}

// prune forgets addresses with no session and no bytes in the last hour.
func (a *admission) prune(now int64) {
	for ip, u := range a.ips {
		if u.sessions == 0 && u.used(now) == 0 {
			delete(a.ips, ip)
		}
	}
}
