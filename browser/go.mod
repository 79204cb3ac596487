module github.com/ivc-project/ivc/browser

go 1.26.8

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/ivc-project/ivc v0.0.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)

replace github.com/ivc-project/ivc => ../
