package diagram

import (
	"slices"
	"strings"
	"testing"

	"github.com/ivc-project/ivc/interaction"
)

// oneLine joins the lines of a .hsf or .hif text, without their
// indentation: a dump that fits a table line.
func oneLine(b []byte) string {
	var parts []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		parts = append(parts, strings.TrimSpace(l))
	}
	return strings.Join(parts, "")
}

// dump is a diagram's derived signature and interaction, one line each,
// and its warnings.
func dump(t *testing.T, d *Diagram) string {
	t.Helper()
	sf := d.SigFile()
	sig, _, err := sf.Signature(d.File)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := interaction.NewStore(sig).Resolve(d.File, d.Root); err != nil {
		t.Fatal(err)
	}
	s := oneLine(interaction.FormatHSF(sf)) + "\n" + oneLine(interaction.FormatHIF(d.Root))
	for _, w := range d.Warnings {
		s += "\n" + w.Error()
	}
	return s
}

var readTests = []struct {
	name, file, src, want string
}{
	{"mermaid arrows", "a.mmd", `sequenceDiagram
    Alice->>John: Hello John, how are you?
    John-->>Alice: Great!
    Alice-)John: See you later!
    A->B: solid; A-->B: dotted
    A-xB: cross
    A--xB: dotted cross
    A--)B: dotted open
    A<<->>B: both
    A<<-->>B: both dotted
    A-|\B: half
    Alice->>+John: activate
    John-->>-Alice: deactivate
    Alice->>()John: central
    my-service->>db: hyphens`,
		`@lifeline{Alice;John;A;B;"my-service";db}@message{"Hello John, how are you?";"Great!";"See you later!";solid;dotted;cross;"dotted cross";"dotted open";both;"both dotted";half;activate;deactivate;central;hyphens}
seq(Alice -- "Hello John, how are you?" -> John,John -- "Great!" -> Alice,Alice -- "See you later!" -> John,A -- solid -> B,A -- dotted -> B,A -- cross -> B,A -- "dotted cross" -> B,A -- "dotted open" -> B,A -- both -> B,A -- "both dotted" -> B,A -- half -> B,Alice -- activate -> John,John -- deactivate -> Alice,Alice -- central -> John,"my-service" -- hyphens -> db)`},
	{"mermaid participants", "a.mmd", `sequenceDiagram
    participant GW as API Gateway
    actor U as User 🙂
    participant Nginx Ingress
    participant API@{ "type": "boundary", "alias": "Public API" }
    box Aqua Internal
    participant S as Order<br>Service
    end
    U->>GW: GET /x
    GW->>Nginx Ingress: forward
    create participant C as Cart
    S->>C: new
    destroy C
    S-xC: bye
    API->>Late: hi
    participant Late as Late Comer`,
		`@lifeline{GW = "API Gateway";U = "User 🙂";"Nginx Ingress";API = "Public API";S = "Order<br>Service";C = Cart;Late = "Late Comer"}@message{"GET /x";forward;new;bye;hi}
seq(U -- "GET /x" -> GW,GW -- forward -> "Nginx Ingress",S -- new -> C,S -- bye -> C,API -- hi -> Late)`},
	{"mermaid fragments", "a.mmd", `sequenceDiagram
    A->>B: a
    alt ok
        B->>A: b
    else
        B->>A: c
    else other
    end
    opt maybe
        A->>B: d
    end
    par A to B
        A->>B: e
    and
        A->>C: f
    end
    loop every minute
        A->>B: g
        B->>A: h
    end
    rect rgb(0, 255, 0)
        A->>B: i
        B->>A: j
    end
    critical connect
        A->>DB: k
    option timeout
        A->>B: l
    end
    break failure
        A->>B: m
    end
    A->>B: n
    A->>B: o`,
		`@lifeline{A;B;C;DB}@message{a;b;c;d;e;f;g;h;i;j;k;l;m;n;o}
seq(A -- a -> B,alt(B -- b -> A,B -- c -> A,o),alt(A -- d -> B,o),par(A -- e -> B,A -- f -> C),loopW(seq(A -- g -> B,B -- h -> A)),A -- i -> B,B -- j -> A,alt(A -- k -> DB,A -- l -> B),alt(A -- m -> B,seq(A -- n -> B,A -- o -> B)))
a.mmd:25:5: warning: critical read as an alt of its region and its options: ivc does not check that the region is not interleaved`},
	{"mermaid ignored", "a.mmd", `---
title: front matter
---
%%{init: {"theme": "dark"}}%%
sequenceDiagram
    title Checkout
    accTitle: the checkout
    accDescr {
      over lines
    }
    autonumber 10 10
    %% a comment
    Note over A,B: a note
    note right of A
        over lines
    end
    activate A
    A->>B: x #59; y # a comment
    deactivate A
    link A: Dashboard @ https://example.com
    A->>A: internal work
    A->>A: more`,
		`@lifeline{A;B}@message{"x ; y"}
A -- "x ; y" -> B
a.mmd:21:5: warning: 2 self-messages (the first here) read as a note: traces hold no event for internal work (--self-messages message reads self-messages as messages)`},
	{"mermaid annotations", "a.mmd", `sequenceDiagram
    %% ivc: env
    participant envin as [env]
    participant a
    participant b
    participant c
    %% ivc: gate
    participant G0 as g
    %% ivc: declare(unused, "GET /x")
    envin-)a: m
    %% ivc: synch
    a->>b: n
    %% ivc: broadcast
    a->>c: n
    G0-)c: k
    %% ivc: message
    a-)a: self
    %% ivc: strict
    rect rgba(128,128,128,0.1)
        Note over a,c: strict
        a-)b: m
        rect rgba(0,0,0,0)
            b-)c: n
            c-)a: k
        end
    end
    %% ivc: coreg(a, c)
    par
        a-)b: m
    and
        c-)b: n
    end
    %% ivc: sync{b?m, a!m}
    par
        a-)b: m
    and
        a-)b: m
    end
    %% ivc: loopS
    loop
        a-)b: m
    end
    %% ivc: loopH
    loop
        a-)b: m
    end
    %% ivc: loopP
    loop
        a-)b: m
    end`,
		`@lifeline{a;b;c}@message{unused;"GET /x";m;n;k;self}@gate{g}
seq(m -> a,a -- <synch>n -> (b,c),g -- k -> c,a -- self -> a,strict(a -- m -> b,seq(b -- n -> c,c -- k -> a)),coreg(a,c)(a -- m -> b,c -- n -> b),sync{b?m,a!m}(a -- m -> b,a -- m -> b),loopS(a -- m -> b),loopH(a -- m -> b),loopP(a -- m -> b))`},
	{"plantuml", "a.puml", `@startuml
title Checkout
skinparam sequenceMessageAlign center
skinparam participant {
  BackgroundColor LightBlue
}
actor User as U
participant "API Gateway" as GW #99FF99
database DB as "orders-db"
box "Internal" #LightBlue
participant Svc
queue "Kafka topic" as Q <<queue>>
end box
/' a block
comment '/
U -> GW ++ : POST /order
GW -> Svc ++ : create
Svc -> DB : INSERT order
DB --> Svc : ok
' a comment
alt#Gold #LightBlue success
  Svc -[#red]>> Q : order-created
else failure
  Svc ->x Q : dead
end
return 201
return done
== Later ==
...5 minutes later...
|||
[-> GW : ping
GW ->] : pong
?-> GW : ping
Q <- Svc : reversed
Svc <-- Q : reversed reply
note right of GW
  over lines
end note
note over GW, Svc : a note
autonumber
hide footbox
!theme plain
group a group
  GW -> Svc : in group
end
loop 3 times
  par
    Svc -> DB : a
  else
    Svc -> Q : b
  end
end
@enduml`,
		`@lifeline{U = User;GW = "API Gateway";DB = "orders-db";Svc;Q = "Kafka topic"}@message{"POST /order";create;"INSERT order";ok;"order-created";dead;"201";done;ping;pong;reversed;"reversed reply";"in group";a;b}
seq(U -- "POST /order" -> GW,GW -- create -> Svc,Svc -- "INSERT order" -> DB,DB -- ok -> Svc,alt(Svc -- "order-created" -> Q,Svc -- dead -> Q),Svc -- "201" -> GW,GW -- done -> U,ping -> GW,GW -- pong ->|,ping -> GW,Svc -- reversed -> Q,Q -- "reversed reply" -> Svc,GW -- "in group" -> Svc,loopW(par(Svc -- a -> DB,Svc -- b -> Q)))`},
	{"plantuml annotations", "a.puml", `@startuml
participant "a" as L0
participant "b" as L1
' ivc: gate
participant "g" as G0
' ivc: declare(unused)
[->> L0 : m
' ivc: synch
L0 -> L1 : n
' ivc: broadcast
L0 -> G0 : n
' ivc: strict
group strict
  note over L0,L1 : strict
  L0 ->> L1 : m
  group seq
    L1 ->> L0 : n
    L0 ->> L1 : k
  end
end
' ivc: loopS
loop loopS
  L0 ->> L1 : &#32;spaced&#32; &#38;amp;
end
L0 ->>] : k
@enduml`,
		`@lifeline{L0 = a;L1 = b}@message{unused;m;n;k;" spaced  &amp;"}@gate{g}
seq(m -> L0,L0 -- <synch>n -> (L1,g),strict(L0 -- m -> L1,seq(L1 -- n -> L0,L0 -- k -> L1)),loopS(L0 -- " spaced  &amp;" -> L1),L0 -- k ->|)`},
	{"plantuml return and autoactivate", "a.puml", `@startuml
autoactivate on
A -> B : call
B -> C : inner
return inner done
B --> A : done
activate A
deactivate A
C -> D ++ : x
D -> D ++ : self
return self done
return x done
@enduml`,
		`@lifeline{A;B;C;D}@message{call;inner;"inner done";done;x;"x done"}
seq(A -- call -> B,B -- inner -> C,C -- "inner done" -> B,B -- done -> A,C -- x -> D,D -- "x done" -> C)
a.puml:10:1: warning: 2 self-messages (the first here) read as a note: traces hold no event for internal work (--self-messages message reads self-messages as messages)`},
	{"arrows without text", "a.puml", "A -> B : call\nB --> A\nA -> B ++ : again\nreturn\nA -> B : end",
		`@lifeline{A;B}@message{call;again;end}
seq(A -- call -> B,A -- again -> B,A -- end -> B)
a.puml:2:1: warning: 2 arrows (the first here) without text left out: ivc names a message by its text`},
	{"plantuml names like keywords", "a.puml", "@startuml\nstart -> stopwatch : go\nnode -> classifier : n\n@enduml",
		`@lifeline{start;stopwatch;node;classifier}@message{go;n}
seq(start -- go -> stopwatch,node -- n -> classifier)`},
	{"markdown", "a.md", "# Title\n\n```mermaid\ngraph TD\n  A-->B\n```\n\n## The `Checkout` flow\n\n```mermaid\nsequenceDiagram\n  A->>B: buy\n```\n",
		`@lifeline{A;B}@message{buy}
A -- buy -> B`},
	{"bare markdown", "a.md", "sequenceDiagram\n  A->>B: hi\n",
		`@lifeline{A;B}@message{hi}
A -- hi -> B`},
	{"markdown plantuml", "a.md", "Text\n\n~~~plantuml\n@startuml\nA -> B : hi\n@enduml\n~~~\n",
		`@lifeline{A;B}@message{hi}
A -- hi -> B`},
}

func TestRead(t *testing.T) {
	for _, c := range readTests {
		d, err := Read(c.file, []byte(c.src), Options{})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := dump(t, d); got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestSelfMessages: with the option, a self-message is a message.
func TestSelfMessages(t *testing.T) {
	d, err := Read("a.mmd", []byte("sequenceDiagram\nA->>A: work\nA->>B: done"), Options{SelfMessages: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(t, d), "@lifeline{A;B}@message{work;done}\nseq(A -- work -> A,A -- done -> B)"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestReplies: the arrow of each message is kept, and whether it reads as
// a reply (dashed, or a PlantUML return).
func TestReplies(t *testing.T) {
	for _, c := range []struct{ file, src, want string }{
		{"a.mmd", "sequenceDiagram\nA->>B: call\nB-->>A: answer\nA-)B: async\nB--xA: lost", "->> -->>(reply) -) --x(reply)"},
		{"a.puml", "A -> B ++ : call\nB --> A : answer\nA -> B ++ : again\nreturn back\nA <-- B : left", "-> -->(reply) -> return(reply) <--(reply)"},
	} {
		d, err := Read(c.file, []byte(c.src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range d.Messages {
			s := m.Arrow
			if m.Reply {
				s += "(reply)"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %s, want %s", c.file, strings.Join(got, " "), c.want)
		}
	}
}

// TestReplyOfCall: a reply answers the last call drawn before it between
// the same two lifelines, reversed, not answered yet; a dashed arrow that
// answers no call is in no pair.
func TestReplyOfCall(t *testing.T) {
	for _, c := range []struct{ file, src, want string }{
		{"a.mmd", "sequenceDiagram\nA->>B: call\nB->>C: ask\nC-->>B: told\nB-->>A: answer\nC-->>A: note", "ask→told call→answer"},
		{"a.mmd", "sequenceDiagram\nA->>B: one\nA->>B: two\nB-->>A: r2\nB-->>A: r1", "one→r1 two→r2"},
		{"a.puml", "A -> B ++ : call\nB -> C ++ : ask\nreturn told\nreturn answer", "ask→told call→answer"},
		{"a.mmd", "sequenceDiagram\nA->>B: call", ""},
	} {
		d, err := Read(c.file, []byte(c.src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for call, reply := range d.Replies() {
			got = append(got, call+"→"+reply)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: %s, want %s", c.src, strings.Join(got, " "), c.want)
		}
	}
}

// TestSelect: a file of several diagrams, chosen by number or by the
// heading above.
func TestSelect(t *testing.T) {
	src := "# Design\n\n## Checkout flow\n\n```mermaid\nsequenceDiagram\nA->>B: one\n```\n\n## Payment [the provider](https://x.example)\n\n```mermaid\nsequenceDiagram\nA->>B: two\n```\n\n## Checkout flow\n\n```mermaid\nsequenceDiagram\nA->>B: three\n```\n"
	for _, c := range []struct{ name, want string }{
		{"d.md#1", "one"},
		{"d.md#2", "two"},
		{"d.md#checkout-flow", "one"},
		{"d.md#payment-the-provider", "two"},
		{"d.md#Checkout-Flow-1", "three"},
		{"d.md", "d.md: 3 sequence diagrams: choose one with d.md#1 (line 5, #checkout-flow), d.md#2 (line 12, #payment-the-provider), d.md#3 (line 19, #checkout-flow-1)"},
		{"d.md#4", "d.md#4: no diagram 4: the file has 3 (d.md#1 (line 5, #checkout-flow), d.md#2 (line 12, #payment-the-provider), d.md#3 (line 19, #checkout-flow-1))"},
		{"d.md#nope", `d.md#nope: no diagram under a heading "nope": choose one with d.md#1 (line 5, #checkout-flow), d.md#2 (line 12, #payment-the-provider), d.md#3 (line 19, #checkout-flow-1)`},
	} {
		d, err := Read(c.name, []byte(src), Options{})
		var got string
		if err != nil {
			got = err.Error()
		} else {
			got = d.Root.Msg.Text
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

var errorTests = []struct{ file, src, want string }{
	{"a.mmd", "graph TD\nA-->B", "a.mmd:1:1: expected sequenceDiagram, found \"graph TD\""},
	{"a.mmd", "sequenceDiagram\nA->>B", "a.mmd:2:2: message without text: expected ':' and the message after \"A\"->>"},
	{"a.mmd", "sequenceDiagram\nloop x\nA->>B: m", "a.mmd:2:1: loop is not closed by end"},
	{"a.mmd", "sequenceDiagram\nA->>B: m\nend", "a.mmd:3:1: end of no block"},
	{"a.mmd", "sequenceDiagram\nloop\nand\nend", "a.mmd:3:1: and in a loop block (at line 2)"},
	{"a.mmd", "sequenceDiagram\nelse", "a.mmd:2:1: else outside a block"},
	{"a.mmd", "sequenceDiagram\nhello world", "a.mmd:2:1: expected a message (A->>B: text) or a statement, found \"hello world\""},
	{"a.mmd", "sequenceDiagram\n%% ivc: strict\nA->>B: m", "a.mmd:2:9: ivc: strict does not apply to the arrow that follows it (line 3)"},
	{"a.mmd", "sequenceDiagram\n%% ivc: loopS\nNote over A: x", "a.mmd:2:9: ivc: loopS does not apply to the note that follows it (line 3)"},
	{"a.mmd", "sequenceDiagram\n%% ivc: frobnicate", "a.mmd:2:9: unknown annotation ivc: frobnicate (want strict, coreg, sync, loopS, loopH, loopW, loopP, synch, broadcast, message, gate, env or declare)"},
	{"a.mmd", "sequenceDiagram\n%% ivc: coreg(a,", "a.mmd:2:17: expected a name in ivc: coreg(...), found end of file"},
	{"a.mmd", "sequenceDiagram\n%% ivc: synch", "a.mmd:2:9: ivc: synch: no statement follows it"},
	{"a.mmd", "sequenceDiagram\n%% ivc: broadcast\nA->>B: m", "a.mmd:2:9: ivc: broadcast: no message right before this arrow to broadcast"},
	{"a.mmd", "sequenceDiagram\nA->>B: m\n%% ivc: broadcast\nA->>C: n", "a.mmd:3:9: ivc: broadcast: this arrow is not message \"m\" of the arrow before it, from the same sender"},
	{"a.mmd", "sequenceDiagram\n%% ivc: coreg(x)\npar\nA->>B: m\nand\nB->>A: n\nend", "a.mmd:2:15: ivc: no lifeline x in the diagram (name a participant by its id or its name)"},
	{"a.mmd", "sequenceDiagram\nparticipant A as X\nparticipant B as X\nA->>B: m", "a.mmd:3:13: participant B is drawn as \"X\", as participant A is (line 2): two lifelines cannot have one name"},
	{"a.mmd", "sequenceDiagram\nparticipant A as B\nparticipant B as C\nB->>A: m", "a.mmd:3:13: participant B is the name of participant A (line 2): name it otherwise"},
	{"a.mmd", "sequenceDiagram\nbox Blue\nA->>B: m\nend", "a.mmd:3:1: \"A->>B: m\" in a box: a box holds participants"},
	{"a.puml", "@startuml\nref over A, B : init\n@enduml", "a.puml:2:1: ref (a reference to another diagram) is not supported: write its messages in this diagram"},
	{"a.puml", "@startuml\nreturn x\n@enduml", "a.puml:2:1: return with no activation to return from (activate the callee: A -> B ++ : call)"},
	{"a.puml", "@startuml\nA - B : x\n@enduml", "a.puml:2:3: arrow \"-\" without a head"},
	{"a.puml", "@startuml\nparticipant \"A\n@enduml", "a.puml:2:13: quoted name not terminated: missing '\"'"},
	{"a.md", "# Doc\n\nText.\n\n```mermaid\nsequenceDiagram\n  A->>B m\n```\n", "a.md:7:4: message without text: expected ':' and the message after \"A\"->>"},
	{"a.md", "# Doc\n", "a.md: no sequence diagram: want a ```mermaid block that starts with sequenceDiagram, or a ```plantuml block"},
	{"a.mmd", "sequenceDiagram\n%% ivc: env\nparticipant E\nE->>E: m", "a.mmd:4:1: message \"m\" has no lifeline at either end (only the border, gates or the environment)"},
	// Gates are no lifelines either: a message between two gates, or from a
	// gate to the border, has nothing to verify (the fuzzer's find).
	{"a.puml", "@startuml\nparticipant A\n' ivc: gate\nparticipant G\n' ivc: gate\nparticipant H\nG -> H : m\n@enduml", "a.puml:7:1: message \"m\" has no lifeline at either end (only the border, gates or the environment)"},
	{"a.puml", "@startuml\n' ivc: gate\nparticipant G\nA -> G : x\nG ->] : 0\n@enduml", "a.puml:5:1: message \"0\" has no lifeline at either end (only the border, gates or the environment)"},
	{"a.mmd", "sequenceDiagram\n%% ivc: gate\nparticipant G\n%% ivc: env\nparticipant E\nparticipant A\nE->>G: m", "a.mmd:7:1: message \"m\" has no lifeline at either end (only the border, gates or the environment)"},
	{"a.puml", "@startuml\nparticipant A\n' ivc: gate\nparticipant G\nG -> G : m\n@enduml", "a.puml:5:1: message \"m\" has no lifeline at either end (only the border, gates or the environment)"},
}

func TestErrors(t *testing.T) {
	for _, c := range errorTests {
		d, err := Read(c.file, []byte(c.src), Options{})
		if err == nil {
			_, _, err = d.SigFile().Signature(d.File)
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\ngot  %v\nwant %s", c.src, err, c.want)
		}
	}
}
