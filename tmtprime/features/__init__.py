"""Black-box, system-independent features per candidate, including Meteor-derived ones."""
