package tid_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/atcore/atcore/tid"
)

func ExampleParse() {
	id, err := tid.Parse("3kxnlhr3gxq23")
	fmt.Println(id, err)
	fmt.Println(id.Time().Format(time.RFC3339Nano), id.ClockID(), id.ClockClass())

	_, err = tid.Parse("3kxn-lhr-3gxq-23")
	fmt.Println(err)
	fmt.Println(errors.Is(err, tid.ErrSyntax))
	// Output:
	// 3kxnlhr3gxq23 <nil>
	// 2024-07-19T16:40:46.48031Z 1 best-effort
	// invalid TID "3kxn-lhr-3gxq-23": '-' at offset 4: hyphens (the legacy dashed form) are not allowed
	// true
}

func ExampleParseLenient() {
	id, err := tid.ParseLenient("3kxn-lhr-3gxq-23")
	fmt.Println(id, err)
	// Output: 3kxnlhr3gxq23 <nil>
}

func ExampleTID_Time() {
	id := tid.MustParse("3iso34eqpw222")
	fmt.Println(id.Time())
	fmt.Println(id.UnixMicro())
	// Output:
	// 2022-02-22 19:22:22 +0000 UTC
	// 1645557742000000
}

func ExampleTID_Dashed() {
	fmt.Println(tid.MustParse("3kxnlhr3gxq23").Dashed())
	// Output: 3kxn-lhr-3gxq-23
}

func ExampleFromTime() {
	at := time.Date(2024, 7, 19, 16, 40, 46, 480310000, time.UTC)
	id, err := tid.FromTime(at, 1)
	fmt.Println(id, err)

	_, err = tid.FromTime(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), 1)
	fmt.Println(errors.Is(err, tid.ErrTimeRange))
	// Output:
	// 3kxnlhr3gxq23 <nil>
	// true
}

func ExamplePrefixRange() {
	first, last, err := tid.PrefixRange("3kxn")
	fmt.Println(first.Format(time.RFC3339Nano))
	fmt.Println(last.Format(time.RFC3339Nano))
	fmt.Println(err)
	// Output:
	// 2024-07-19T11:28:52.498432Z
	// 2024-07-19T21:01:32.236799Z
	// <nil>
}

func ExampleBounds() {
	// All records created during one second, from a table keyed by TID.
	from := time.Date(2024, 7, 19, 16, 40, 46, 0, time.UTC)
	lo, _, _ := tid.Bounds(from)
	_, hi, _ := tid.Bounds(from.Add(time.Second - time.Microsecond))
	fmt.Printf("WHERE rkey BETWEEN '%s' AND '%s'\n", lo, hi)
	// Output: WHERE rkey BETWEEN '3kxnlhqmrw222' AND '3kxnlhrlchzzz'
}

func ExampleNext() {
	a, b := tid.Next(), tid.Next()
	fmt.Println(a < b, len(a.String()), a.ClockClass())
	// Output: true 13 best-effort
}

func ExampleNewGenerator() {
	// A deployment that assigns each writer its own clock id (DECISIONS rule 7: 32–991).
	g, err := tid.NewGenerator(42)
	if err != nil {
		panic(err)
	}
	// Carry on after the repository's last revision, even if it came from a clock ahead of ours.
	lastRev, _ := tid.FromTime(time.Now().Add(time.Minute), 1023)
	if err := g.ContinueAfter(lastRev); err != nil {
		panic(err)
	}
	id := g.Next()
	fmt.Println(id > lastRev, id.ClockID(), id.ClockClass())
	// Output: true 42 context-dependent
}

func ExampleTID_MarshalText() {
	b, _ := json.Marshal(struct {
		Rev tid.TID `json:"rev"`
	}{tid.MustParse("3kxnlhr3gxq23")})
	fmt.Println(string(b))
	// Output: {"rev":"3kxnlhr3gxq23"}
}

func ExampleGenerator_ContinueAfter() {
	// The clock of this example reads 2024-07-19T16:40:46.48031Z; a real one needs no argument.
	now := time.Date(2024, 7, 19, 16, 40, 46, 480310000, time.UTC)
	g, _ := tid.NewGeneratorWithClock(42, func() time.Time { return now })

	// The repository's last revision came from a server whose clock ran a minute ahead.
	lastRev, _ := tid.FromTime(now.Add(time.Minute), 7)
	if err := g.ContinueAfter(lastRev); err != nil {
		panic(err)
	}
	next := g.Next()
	fmt.Println(lastRev, lastRev.Time().Format(time.RFC3339Nano))
	fmt.Println(next, next.Time().Format(time.RFC3339Nano), next > lastRev)

	// A revision from years ahead is corrupt or hostile: following it would pin the generator.
	err := g.ContinueAfter(tid.MustParse("3zzzzzzzzzzzz"))
	fmt.Println(errors.Is(err, tid.ErrAhead))
	// Output:
	// 3kxnljkcipq2b 2024-07-19T16:41:46.48031Z
	// 3kxnljkcipr3e 2024-07-19T16:41:46.480311Z true
	// true
}

func ExamplePrefixBounds() {
	// Every TID that starts with "3kxn", as bounds for a range query over a TID-keyed table.
	lo, hi, err := tid.PrefixBounds("3kxn")
	fmt.Println(lo, hi, err)
	id := tid.MustParse("3kxnlhr3gxq23")
	fmt.Println(lo <= id && id <= hi)

	_, _, err = tid.PrefixBounds("3kx1")
	fmt.Println(err)
	// Output:
	// 3kxn222222222 3kxnzzzzzzzzz <nil>
	// true
	// invalid TID prefix "3kx1": '1' at offset 3 is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz
}

func ExampleTID_Scan() {
	// What a database driver hands to Scan: text from a TEXT column, an int64 from a BIGINT.
	var fromText, fromBigInt tid.TID
	fmt.Println(fromText.Scan("3kxnlhr3gxq23"), fromText)
	fmt.Println(fromBigInt.Scan(int64(1762721020395837441)), fromBigInt)

	// NULL never passes for the zero TID, nor a negative BIGINT for a TID.
	fmt.Println(fromText.Scan(nil))
	err := fromBigInt.Scan(int64(-1))
	fmt.Println(errors.Is(err, tid.ErrTopBit))
	// Output:
	// <nil> 3kxnlhr3gxq23
	// <nil> 3kxnlhr3gxq23
	// tid: cannot scan NULL into a TID (use sql.Null[tid.TID])
	// true
}

func ExampleTID_Value() {
	id := tid.MustParse("3kxnlhr3gxq23")
	v, _ := id.Value() // what database/sql writes for a TID argument: the text form
	fmt.Printf("%T %v\n", v, v)
	// For a BIGINT column, pass the integer instead (see TID.Scan).
	fmt.Println(int64(id))
	// Output:
	// string 3kxnlhr3gxq23
	// 1762721020395837441
}

func ExampleTID_Bytes() {
	b := tid.MustParse("3kxnlhr3gxq23").Bytes()
	fmt.Printf("% x\n", b) // big-endian: the bytes sort as the TIDs do
	back, err := tid.FromBytes(b[:])
	fmt.Println(err, back)
	// Output:
	// 18 76 71 6d c2 ce d8 01
	// <nil> 3kxnlhr3gxq23
}
