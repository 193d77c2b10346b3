// Package group holds the one grouping step several packages share:
// indices of items by key, groups in order of first appearance.
package group

// ByFirstSeen returns the indices of items grouped by key, groups in the
// order their key first appears, indices ascending within a group.
func ByFirstSeen[T any, K comparable](items []T, key func(T) K) [][]int {
	pos := map[K]int{}
	var out [][]int
	for i, it := range items {
		k := key(it)
		g, ok := pos[k]
		if !ok {
			g = len(out)
			pos[k] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], i)
	}
	return out
}
