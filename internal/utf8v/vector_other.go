//go:build !amd64 || purego

package utf8v

// useVector is false: this build has no vector path, and everything runs on the automaton.
const useVector = false

// jsonTextVector reports that there is no vector path.
func jsonTextVector(p []byte) (n, res int) { return 0, vectorNone }

// validVector reports that there is no vector path.
func validVector(p []byte) (n, res int) { return 0, vectorNone }
