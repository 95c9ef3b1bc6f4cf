"""Content-judgment audits: capture pages, build judgment units, judge, merge, ratify."""
