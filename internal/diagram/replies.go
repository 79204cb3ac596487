package diagram

// Replies returns the replies the diagram draws, by the message of the
// call each answers: a reply (a dashed arrow, a PlantUML return) from B to
// A answers the last call from A to B drawn before it and not answered
// yet, as an activation does. A reply that answers no call is a message
// like any other, and not in the map; a call answered by several replies
// (an alt of answers) keeps the first. The readers of traces turn a span's
// end into its reply (package logs, Options.Replies).
func (d *Diagram) Replies() map[string]string {
	type call struct {
		from, to, msg string
		answered      bool
	}
	var calls []call
	replies := map[string]string{}
	for _, m := range d.Messages {
		n := m.Node
		if n == nil || n.From == nil || len(n.To) != 1 {
			continue
		}
		from, to := n.From.Text, n.To[0].Text
		if !m.Reply {
			calls = append(calls, call{from: from, to: to, msg: n.Msg.Text})
			continue
		}
		for i := len(calls) - 1; i >= 0; i-- {
			if c := &calls[i]; !c.answered && c.from == to && c.to == from {
				c.answered = true
				if _, ok := replies[c.msg]; !ok {
					replies[c.msg] = n.Msg.Text
				}
				break
			}
		}
	}
	if len(replies) == 0 {
		return nil
	}
	return replies
}
