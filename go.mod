module github.com/ivc-project/ivc

go 1.26.8
