package orbit

import "math"

// Neighbours returns satellite i's +Grid inter-satellite links: the
// satellites ahead and behind in its plane and the nearest in argument of
// latitude in each adjacent plane (−1 where the shell has no such plane).
// Links stay within a shell; the seam between the last and first plane is
// linked like any other pair of planes.
func (w *Walker) Neighbours(i int) [4]int { return w.nbr[i] }

// plusGrid builds every satellite's four +Grid neighbours.
func (w *Walker) plusGrid() [][4]int {
	nbr := make([][4]int, len(w.sats))
	first := make([]int, len(w.shells)) // index of each shell's first satellite
	for i := 1; i < len(w.shells); i++ {
		first[i] = first[i-1] + w.shells[i-1].Size()
	}
	for i, s := range w.sats {
		sh := w.shells[s.shell]
		at := func(plane, index int) int {
			plane = (plane%sh.Planes + sh.Planes) % sh.Planes
			index = (index%sh.PerPlane + sh.PerPlane) % sh.PerPlane
			return first[s.shell] + plane*sh.PerPlane + index
		}
		n := [4]int{-1, -1, -1, -1}
		if sh.PerPlane > 1 {
			n[0], n[1] = at(s.plane, s.index+1), at(s.plane, s.index-1)
		}
		if sh.Planes > 1 {
			n[2] = w.nearestInPlane(at(s.plane+1, 0), sh.PerPlane, s.u0)
			n[3] = w.nearestInPlane(at(s.plane-1, 0), sh.PerPlane, s.u0)
		}
		if n[2] == n[3] {
			n[3] = -1 // two planes: one link, not two
		}
		if n[0] == n[1] {
			n[1] = -1
		}
		nbr[i] = n
	}
	return nbr
}

// nearestInPlane returns the satellite of the plane starting at index
// base whose argument of latitude is closest to u.
func (w *Walker) nearestInPlane(base, perPlane int, u float64) int {
	best, bestD := base, math.Inf(1)
	for k := 0; k < perPlane; k++ {
		d := math.Abs(math.Remainder(w.sats[base+k].u0-u, twoPi))
		if d < bestD {
			best, bestD = base+k, d
		}
	}
	return best
}

// router finds shortest paths over a Grid by propagation distance
// (Dijkstra with a binary heap); its buffers are reused between calls so a
// route per slot does not allocate.
type router struct {
	dist []float64 // km from the source
	prev []int32
	heap []heapItem
}

type heapItem struct {
	d float64
	i int32
}

// shortest fills r.dist and r.prev from src over g's links at positions
// pos (ECEF, km).
func (r *router) shortest(g Grid, pos []Vec3, src int) {
	n := g.Len()
	if cap(r.dist) < n {
		r.dist, r.prev = make([]float64, n), make([]int32, n)
	}
	r.dist, r.prev = r.dist[:n], r.prev[:n]
	for i := range r.dist {
		r.dist[i], r.prev[i] = math.Inf(1), -1
	}
	r.heap = r.heap[:0]
	r.dist[src] = 0
	r.push(heapItem{0, int32(src)})
	for len(r.heap) > 0 {
		it := r.pop()
		u := int(it.i)
		if it.d > r.dist[u] {
			continue // stale entry
		}
		for _, v := range g.Neighbours(u) {
			if v < 0 {
				continue
			}
			d := it.d + pos[u].Dist(pos[v])
			if d < r.dist[v] {
				r.dist[v], r.prev[v] = d, int32(u)
				r.push(heapItem{d, int32(v)})
			}
		}
	}
}

// route returns the satellites from the last shortest's source to dst,
// appended to buf.
func (r *router) route(dst int, buf []int) []int {
	start := len(buf)
	for v := dst; v >= 0; v = int(r.prev[v]) {
		buf = append(buf, v)
	}
	for i, j := start, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	return buf
}

func (r *router) push(it heapItem) {
	r.heap = append(r.heap, it)
	h := r.heap
	for c := len(h) - 1; c > 0; {
		p := (c - 1) / 2
		if h[p].d <= h[c].d {
			break
		}
		h[p], h[c] = h[c], h[p]
		c = p
	}
}

func (r *router) pop() heapItem {
	h := r.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for p := 0; ; {
		c := 2*p + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h[c+1].d < h[c].d {
			c++
		}
		if h[p].d <= h[c].d {
			break
		}
		h[p], h[c] = h[c], h[p]
		p = c
	}
	r.heap = h
	return top
}
