package interaction

type semCaches struct{}
